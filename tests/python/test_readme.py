"""The README's "From Python" example, run: its printed output is today's."""
import contextlib
import io
import os
import re


def test_readme_example_prints_what_the_readme_shows(root):
    text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    section = text.split("## From Python", 1)[1]
    code, shown = re.findall(r"```(?:python)?\n(.*?)```", section, re.S)[:2]
    out = io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(root)
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert out.getvalue() == shown
