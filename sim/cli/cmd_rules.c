/*
 * cmd_rules.c — `shardsim rules`: resolve logical axis names alone.
 */
#include "cli.h"

#include "base/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char rules_help[] =
    "usage: shardsim rules --rules RULES --names NAMES [--mesh AXES] [--strict] [--json]\n"
    "       shardsim rules --maxtext CONFIG.yml [--model FILE.yml] [--override KEY=VALUE]...\n"
    "                      [--devices N | --topology T] [--slices S] [--names NAMES] [--json]\n"
    "\n"
    "Resolve logical axis names to mesh axes with Flax Linen's rules and print\n"
    "the PartitionSpec.\n"
    "\n"
    "  --rules RULES   ordered, comma-separated rules; earlier rules win:\n"
    "                  name=axis, name=(ax1,ax2), name=None, name=() (claims the dim,\n"
    "                  shards nothing) or name=UNCONSTRAINED; names may repeat (a\n"
    "                  later rule is tried when an earlier one's axes are taken)\n"
    "  --names NAMES   one logical name per array dim, e.g. batch,length,embed;\n"
    "                  None and UNCONSTRAINED pass through\n"
    "  --mesh AXES     check the axes against this mesh (an absent one is an error,\n"
    "                  as NamedSharding's) and drop those of size 1, as MaxText\n"
    "                  does, e.g. data=2,fsdp=4,tensor=1\n"
    "  --devices N     devices available for --mesh (default 8)\n"
    "  --strict        fail when a rule lost its mesh axis to another dimension\n"
    "                  instead of silently leaving the dimension unsharded\n"
    "  --json          print {\"spec\": [...]} (null for None, arrays for tuples)\n"
    "\n"
    "\n"
    "With --maxtext, the mesh and rules come from a MaxText config file, merged\n"
    "as MaxText's pyconfig merges it (its base_config chain, then the model file\n"
    "models/<model_name>.yml or --model, then the overrides; logical_axis_rules\n"
    "merged by name). It prints the mesh create_device_mesh builds (ici_* and\n"
    "dcn_* parallelism, one -1 filled in, hybrid device order over the slices),\n"
    "the data sharding, how every logical name resolves on that mesh (size-1\n"
    "axes dropped, as MaxText does) and the rules that can never apply; with\n"
    "--names, that array's spec and, per dimension, the rule that decided it\n"
    "and any rule of its name that lost a mesh axis to another dimension.\n"
    "  --maxtext FILE      the config (e.g. MaxText's configs/base.yml)\n"
    "  --model FILE        the model's config (default: models/<model_name>.yml)\n"
    "  --override K=V      a command-line override, as MaxText takes them\n"
    "                      (ici_tensor_parallelism=4); repeatable\n"
    "  --devices N         the devices (default 8); --slices S: in S slices\n"
    "                      (default: the config's num_slices, else 1)\n"
    "  --topology T        TPU slices of this topology (v5e:4x4, v6e:8x8, v5p:4x4x4,\n"
    "                      v4:4x4x8 as megacore, one device per chip, v7x:2x2x4):\n"
    "                      devices = its chips x the slices, ordered as JAX's\n"
    "                      mesh_utils orders a TPU slice's devices (torus order;\n"
    "                      allow_split_physical_axes from the config); without it,\n"
    "                      devices are ordered as CPU devices are. --json then adds\n"
    "                      \"topology\" and each position's chip \"device_coords\"\n"
    "\n"
    "Exit status: 0 ok, 2 bad input or a rules error (one line saying why).\n";

int cli_cmd_rules(int argc, char **argv)
{
    const char *rules_text = NULL, *names_text = NULL, *mesh_text = NULL;
    const char *maxtext = NULL, *model = NULL, *topology = NULL;
    const char *overrides[64];
    int noverrides = 0;
    bool json = false, strict = false;
    int devices = 8, slices = 0;
    bool devices_set = false;
    for (int i = 2; i < argc; i++)
        json = json || strcmp(argv[i], "--json") == 0;
    cli_args a;
    cli_args_init(&a, argc, argv, 2);
    while (cli_args_next(&a)) {
        const char **slot = NULL;
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) {
            fputs(rules_help, stdout);
            return SS_EXIT_OK;
        } else if (cli_is(&a, "--json")) {
            continue;
        } else if (cli_is(&a, "--strict")) {
            strict = true;
            continue;
        } else if (cli_is(&a, "--rules")) {
            slot = &rules_text;
        } else if (cli_is(&a, "--names")) {
            slot = &names_text;
        } else if (cli_is(&a, "--mesh")) {
            slot = &mesh_text;
        } else if (cli_is(&a, "--maxtext")) {
            slot = &maxtext;
        } else if (cli_is(&a, "--model")) {
            slot = &model;
        } else if (cli_is(&a, "--topology")) {
            slot = &topology;
        } else if (cli_is(&a, "--override")) {
            if (noverrides == (int)(sizeof overrides / sizeof overrides[0]))
                return cli_fail("rules", json, "more than 64 --override options");
            slot = &overrides[noverrides++];
        } else if (cli_is(&a, "--slices")) {
            const char *v = cli_value(&a);
            char *end;
            long n = v ? strtol(v, &end, 10) : 0;
            if (!v || *end || n < 1 || n > SS_MAX_DEVICES)
                return cli_fail("rules", json, "--slices expects an integer in 1..4096");
            slices = (int)n;
            continue;
        } else if (cli_is(&a, "--devices")) {
            const char *v = cli_value(&a);
            char *end;
            long n = v ? strtol(v, &end, 10) : 0;
            if (!v || *end || n < 1 || n > SS_MAX_DEVICES)
                return cli_fail("rules", json, "--devices expects an integer in 1..4096");
            devices = (int)n;
            devices_set = true;
            continue;
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option '%s' (see shardsim rules --help)", a.name);
            return cli_fail("rules", json, msg);
        }
        if (!(*slot = cli_value(&a)))
            return cli_fail("rules", json, ss_error_message());
    }
    if (maxtext) {
        if (rules_text || mesh_text || strict)
            return cli_fail("rules", json, "--maxtext takes the rules and the mesh from the "
                                           "config: drop --rules, --mesh and --strict");
        if (topology && devices_set)
            return cli_fail("rules", json, "--topology gives the devices (its chips x the "
                                           "slices): drop --devices");
        cli_rules_maxtext_args m = {maxtext, model, names_text, topology, noverrides,
                                    overrides, devices, slices, json};
        return ss__cli_rules_maxtext(&m);
    }
    if (model || noverrides || slices || topology)
        return cli_fail("rules", json,
                        "--model, --override, --slices and --topology need --maxtext");
    if (!rules_text || !names_text)
        return cli_fail("rules", json, "--rules and --names are required "
                                       "(e.g. --rules batch=data,embed=model --names batch,embed)");

    ss_rules rules = {0, NULL};
    ss_mesh *mesh = NULL;
    ss_spec names, out;
    int constrained = 1;
    ss_status st = ss_rules_parse(rules_text, &rules);
    if (!st)
        st = ss_spec_parse(names_text, &names);
    if (!st && mesh_text)
        st = ss_mesh_make(mesh_text, devices, NULL, &mesh);
    if (!st) {
        ss_rules_options ro = {.mesh = mesh, .strict = strict,
                               .fallback = SS_FALLBACK_UNSHARDED};
        st = ss_rules_resolve(&rules, &names, &ro, &out, &constrained);
    }
    int rc = SS_EXIT_OK;
    if (st) {
        rc = cli_fail("rules", json, ss_error_message());
    } else {
        ss__buf b;
        ss__buf_init(&b);
        if (json) {
            ss__buf_putc(&b, '{');
            ss__json_key(&b, "spec");
            ss__json_spec(&b, &out);
            ss__buf_puts(&b, "}\n");
        } else {
            char repr[8192];
            ss_spec_repr(&out, repr, sizeof repr);
            ss__buf_printf(&b, "%s\n", repr);
        }
        fputs(b.data ? b.data : "", stdout);
        ss__buf_free(&b);
    }
    ss_rules_free(&rules);
    ss_mesh_destroy(mesh);
    return rc;
}
