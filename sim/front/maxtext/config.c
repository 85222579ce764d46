/*
 * config.c — loading a MaxText configuration (YAML, through libyaml's
 * document API) in the layers MaxText's pyconfig merges:
 *
 *   1. the file and its base_config chain (the base first; a later file's
 *      key replaces the earlier value whole, lists included, as
 *      OmegaConf.merge does);
 *   2. the model file, models/<model_name>.yml (model_name as the file and
 *      the overrides leave it; "-Instruct" dropped; looked for beside the
 *      file, then one folder up);
 *   3. the "key=value" overrides.
 *
 * logical_axis_rules alone merge differently between layers 1, 2 and 3:
 * the new layer's rules replace every earlier rule of the same logical
 * name and are appended, unless the layer sets override_logical_axis_rules,
 * which replaces the list (pyconfig's _merge_logical_axis_rules and
 * _apply_rules).
 *
 * Only the keys the mesh and the rules need are read (see shardsim.h);
 * their values are checked for shape, with "FILE:LINE:COL: why" errors.
 */
#include "maxtext.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define MT_MAX_CHAIN 16 /* base_config links followed before calling it a cycle */

/* One parsed YAML document and the name it is reported under. */
typedef struct mt_doc {
    yaml_document_t doc;
    bool loaded;
    const char *file; /* a path, or "override N" */
} mt_doc;

static void doc_free(mt_doc *d)
{
    if (d->loaded)
        yaml_document_delete(&d->doc);
    d->loaded = false;
}

static ss_status fail_at(const mt_doc *d, const yaml_node_t *n, const char *why, const char *key)
{
    return ss__fail(SS_ERR_PARSE, "%s:%zu:%zu: %s%s%s", d->file, n->start_mark.line + 1,
                    n->start_mark.column + 1, key ? key : "", key ? ": " : "", why);
}

/* Parse `len` bytes of YAML text into d (an empty text is an empty document). */
static ss_status doc_parse(mt_doc *d, const char *text, size_t len)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return ss__fail(SS_ERR_NOMEM, "%s: cannot start the YAML parser", d->file);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    ss_status st = SS_OK;
    if (!yaml_parser_load(&p, &d->doc)) {
        st = ss__fail(SS_ERR_PARSE, "%s:%zu:%zu: YAML: %s%s%s", d->file,
                      p.problem_mark.line + 1, p.problem_mark.column + 1,
                      p.problem ? p.problem : "malformed", p.context ? " " : "",
                      p.context ? p.context : "");
    } else {
        d->loaded = true;
    }
    yaml_parser_delete(&p);
    return st;
}

static ss_status doc_load_file(mt_doc *d, const char *path)
{
    char *text;
    size_t len;
    int err = ss__read_file(path, (size_t)64 << 20, &text, &len);
    if (err)
        return ss__fail(SS_ERR_IO, "%s: cannot read: %s", path, strerror(err));
    ss_status st = ss_name_intern(path, &d->file);
    if (!st)
        st = doc_parse(d, text, len);
    free(text);
    return st;
}

static yaml_node_t *node(mt_doc *d, int id) { return yaml_document_get_node(&d->doc, id); }

/* The root mapping, or NULL for an empty document; any other root is an error. */
static ss_status root_mapping(mt_doc *d, yaml_node_t **out)
{
    yaml_node_t *root = yaml_document_get_root_node(&d->doc);
    *out = NULL;
    if (!root)
        return SS_OK;
    if (root->type != YAML_MAPPING_NODE)
        return fail_at(d, root, "a MaxText config is a mapping of keys to values", NULL);
    *out = root;
    return SS_OK;
}

static bool scalar_is(const yaml_node_t *n, const char *text)
{
    return n->type == YAML_SCALAR_NODE && n->data.scalar.length == strlen(text) &&
           memcmp(n->data.scalar.value, text, n->data.scalar.length) == 0;
}

/* YAML's null: a plain "null", "Null", "NULL", "~" or nothing. */
static bool scalar_is_null(const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    return n->data.scalar.length == 0 || scalar_is(n, "~") || scalar_is(n, "null") ||
           scalar_is(n, "Null") || scalar_is(n, "NULL");
}

/* A non-empty string scalar interned. */
static ss_status scalar_name(mt_doc *d, yaml_node_t *n, const char *key, const char *what,
                             const char **out)
{
    if (n->type != YAML_SCALAR_NODE || scalar_is_null(n) || n->data.scalar.length == 0)
        return fail_at(d, n, what, key);
    return ss__name_intern_n((const char *)n->data.scalar.value, n->data.scalar.length, out);
}

static ss_status scalar_int(mt_doc *d, yaml_node_t *n, const char *key, int64_t *out)
{
    char buf[32];
    size_t len = n->type == YAML_SCALAR_NODE ? n->data.scalar.length : 0;
    if (n->type != YAML_SCALAR_NODE || len == 0 || len >= sizeof buf)
        return fail_at(d, n, "expected an integer", key);
    memcpy(buf, n->data.scalar.value, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (*end || errno)
        return fail_at(d, n, "expected an integer", key);
    *out = v;
    return SS_OK;
}

/* YAML 1.1 booleans as OmegaConf reads them. */
static ss_status scalar_bool(mt_doc *d, yaml_node_t *n, const char *key, bool *out)
{
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "on", "On"};
    static const char *const no[] = {"false", "False", "FALSE", "no", "No", "off", "Off"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (scalar_is(n, yes[i]))
            return (*out = true), SS_OK;
        if (scalar_is(n, no[i]))
            return (*out = false), SS_OK;
    }
    return fail_at(d, n, "expected true or false", key);
}

/* ------------------------------------------------------------------------ */
/* Values                                                                    */
/* ------------------------------------------------------------------------ */

static ss_status too_many_axes(mt_doc *d, yaml_node_t *n, const char *key)
{
    char why[96];
    snprintf(why, sizeof why, "more than SS_MAX_AXES (%d) mesh axes", SS_MAX_AXES);
    return fail_at(d, n, why, key);
}

/* A sequence of axis names into names[0..*n). */
static ss_status axis_list(mt_doc *d, yaml_node_t *n, const char *key, const char **names,
                           int *count)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return fail_at(d, n, "expected a list of mesh axis names", key);
    int k = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
         it++) {
        if (k == SS_MAX_AXES)
            return too_many_axes(d, n, key);
        ss_status st = scalar_name(d, node(d, *it), key, "expected a mesh axis name", &names[k++]);
        if (st)
            return st;
    }
    *count = k;
    return SS_OK;
}

/* One rule, [name, value]: value an axis, a list of axes ([] claims the
 * dimension with no axis) or null (None). */
static ss_status parse_rule(mt_doc *d, yaml_node_t *n, ss_rule *r)
{
    static const char key[] = "logical_axis_rules";
    if (n->type != YAML_SEQUENCE_NODE ||
        n->data.sequence.items.top - n->data.sequence.items.start != 2)
        return fail_at(d, n, "each rule is [logical_name, mesh_axes]", key);
    yaml_node_t *name = node(d, n->data.sequence.items.start[0]);
    yaml_node_t *value = node(d, n->data.sequence.items.start[1]);
    memset(r, 0, sizeof *r);
    ss_status st = scalar_name(d, name, key, "a rule's logical name must be a string", &r->name);
    if (st)
        return st;
    if (scalar_is_null(value)) {
        r->kind = SS_RULE_NONE;
        return SS_OK;
    }
    if (value->type == YAML_SCALAR_NODE) {
        r->kind = SS_RULE_AXES;
        r->naxes = 1;
        return scalar_name(d, value, key, "expected a mesh axis name", &r->axes[0]);
    }
    st = axis_list(d, value, key, r->axes, &r->naxes);
    r->kind = r->naxes ? SS_RULE_AXES : SS_RULE_EMPTY;
    return st;
}

static ss_status parse_rules(mt_doc *d, yaml_node_t *n, ss_rules *out)
{
    out->count = 0;
    out->rules = NULL;
    if (scalar_is_null(n))
        return SS_OK;
    if (n->type != YAML_SEQUENCE_NODE)
        return fail_at(d, n, "expected a list of [logical_name, mesh_axes] rules",
                       "logical_axis_rules");
    size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (count && !(out->rules = calloc(count, sizeof *out->rules)))
        return ss__fail(SS_ERR_NOMEM, "%s: out of memory for %zu rules", d->file, count);
    for (size_t i = 0; i < count; i++) {
        ss_status st = parse_rule(d, node(d, n->data.sequence.items.start[i]), &out->rules[i]);
        if (st) {
            ss_rules_free(out);
            return st;
        }
        out->count++;
    }
    return SS_OK;
}

/* data_sharding: a list whose entries are an axis, a list of axes or null. */
static ss_status parse_data_sharding(mt_doc *d, yaml_node_t *n, ss_spec *out)
{
    static const char key[] = "data_sharding";
    memset(out, 0, sizeof *out);
    if (n->type != YAML_SEQUENCE_NODE)
        return fail_at(d, n, "expected a list of PartitionSpec entries", key);
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
         it++) {
        if (out->ndims == SS_MAX_RANK)
            return fail_at(d, n, "more than SS_MAX_RANK entries", key);
        ss_spec_dim *e = &out->dims[out->ndims++];
        yaml_node_t *v = node(d, *it);
        ss_status st = SS_OK;
        if (scalar_is_null(v))
            continue;
        if (v->type == YAML_SCALAR_NODE) {
            e->naxes = 1;
            st = scalar_name(d, v, key, "expected a mesh axis name", &e->axes[0]);
        } else {
            st = axis_list(d, v, key, e->axes, &e->naxes);
        }
        if (st)
            return st;
    }
    return SS_OK;
}

/* ------------------------------------------------------------------------ */
/* Layers                                                                    */
/* ------------------------------------------------------------------------ */

static bool is_parallelism_key(const char *k)
{
    size_t n = strlen(k);
    static const char tail[] = "_parallelism";
    size_t t = sizeof tail - 1;
    return (strncmp(k, "ici_", 4) == 0 || strncmp(k, "dcn_", 4) == 0) && n > 4 + t &&
           strcmp(k + n - t, tail) == 0;
}

static ss_status set_param(ss_maxtext_config *c, mt_doc *d, yaml_node_t *v, const char *key)
{
    int64_t value;
    ss_status st = scalar_int(d, v, key, &value);
    if (st)
        return st;
    int i = 0;
    while (i < c->nparams && strcmp(c->params[i].key, key) != 0)
        i++;
    if (i == c->nparams) {
        if (c->nparams == c->cap_params) {
            int cap = c->cap_params ? 2 * c->cap_params : 32;
            mt_param *p = realloc(c->params, (size_t)cap * sizeof *p);
            if (!p)
                return ss__fail(SS_ERR_NOMEM, "%s: out of memory", d->file);
            c->params = p;
            c->cap_params = cap;
        }
        c->nparams++;
        if ((st = ss_name_intern(key, &c->params[i].key)))
            return st;
    }
    c->params[i].value = value;
    snprintf(c->params[i].where, sizeof c->params[i].where, "%s:%zu:%zu", d->file,
             v->start_mark.line + 1, v->start_mark.column + 1);
    return SS_OK;
}

/* new rules replacing every old rule of a name they carry, appended. */
static ss_status merge_rules(ss_rules *base, ss_rules *add)
{
    int n = 0;
    ss_rule *all = calloc((size_t)(base->count + add->count) + 1, sizeof *all);
    if (!all)
        return ss__fail(SS_ERR_NOMEM, "logical_axis_rules: out of memory");
    for (int i = 0; i < base->count; i++) {
        bool replaced = false;
        for (int j = 0; j < add->count && !replaced; j++)
            replaced = strcmp(base->rules[i].name, add->rules[j].name) == 0;
        if (!replaced)
            all[n++] = base->rules[i];
    }
    for (int j = 0; j < add->count; j++)
        all[n++] = add->rules[j];
    ss_rules_free(base);
    ss_rules_free(add);
    base->rules = all;
    base->count = n;
    return SS_OK;
}

typedef enum rules_mode { RULES_REPLACE, RULES_MERGE } rules_mode;

/* Apply one document's keys to c. With RULES_MERGE the document's
 * logical_axis_rules merge unless it sets override_logical_axis_rules. */
static ss_status apply_doc(ss_maxtext_config *c, mt_doc *d, rules_mode mode)
{
    yaml_node_t *root;
    ss_status st = root_mapping(d, &root);
    if (st || !root)
        return st;
    bool override = false, have_rules = false;
    ss_rules rules = {0, NULL};
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
         !st && p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node(d, p->key), *v = node(d, p->value);
        if (k->type != YAML_SCALAR_NODE)
            continue;
        char key[128];
        size_t len = k->data.scalar.length;
        if (len >= sizeof key)
            continue; /* longer than any key read here */
        memcpy(key, k->data.scalar.value, len);
        key[len] = '\0';
        if (strcmp(key, "mesh_axes") == 0) {
            st = axis_list(d, v, key, c->axes, &c->naxes);
        } else if (strcmp(key, "logical_axis_rules") == 0) {
            ss_rules_free(&rules);
            st = parse_rules(d, v, &rules);
            have_rules = !st;
        } else if (strcmp(key, "override_logical_axis_rules") == 0) {
            st = scalar_bool(d, v, key, &override);
        } else if (strcmp(key, "data_sharding") == 0) {
            st = parse_data_sharding(d, v, &c->data_sharding);
            c->have_data_sharding = !st;
        } else if (strcmp(key, "num_slices") == 0) {
            st = scalar_int(d, v, key, &c->num_slices);
        } else if (strcmp(key, "allow_split_physical_axes") == 0) {
            st = scalar_bool(d, v, key, &c->allow_split);
        } else if (strcmp(key, "model_name") == 0) {
            st = scalar_name(d, v, key, "expected a model name", &c->model_name);
        } else if (is_parallelism_key(key)) {
            st = set_param(c, d, v, key);
        }
    }
    if (!st && have_rules) {
        if (mode == RULES_REPLACE || override) {
            ss_rules_free(&c->rules);
            c->rules = rules;
            rules = (ss_rules){0, NULL};
        } else {
            st = merge_rules(&c->rules, &rules);
        }
    }
    ss_rules_free(&rules);
    return st;
}

/* The path of `rel` in the folder of `from` (up = 1: the folder above),
 * as os.path.join(os.path.dirname(from), rel) gives it; rel itself when
 * absolute. A path too long for `cap` gives "". */
static void path_beside(char *out, size_t cap, const char *from, const char *rel, int up)
{
    char dir[4096];
    int n = snprintf(dir, sizeof dir, "%s", rel[0] == '/' ? "" : from);
    for (int i = 0; i <= up && n >= 0; i++) {
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            dir[0] = '\0';
    }
    n = snprintf(out, cap, "%s%s%s", dir, dir[0] ? "/" : "", rel);
    if (n < 0 || (size_t)n >= cap)
        out[0] = '\0';
}

static bool file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* Layer 1: the base_config chain of `path` (its text given, or NULL to
 * read the file), the base first. */
static ss_status apply_chain(ss_maxtext_config *c, const char *path, const char *text,
                             size_t len, int depth)
{
    if (depth == MT_MAX_CHAIN)
        return ss__fail(SS_ERR_PARSE, "%s: base_config chain deeper than %d files (a cycle?)",
                        path, MT_MAX_CHAIN);
    mt_doc d = {.loaded = false};
    ss_status st = SS_OK;
    if (!text)
        st = doc_load_file(&d, path);
    else if (!(st = ss_name_intern(path, &d.file)))
        st = doc_parse(&d, text, len);
    yaml_node_t *root = NULL;
    if (!st)
        st = root_mapping(&d, &root);
    for (yaml_node_pair_t *p = root ? root->data.mapping.pairs.start : NULL;
         !st && root && p < root->data.mapping.pairs.top; p++) {
        if (!scalar_is(node(&d, p->key), "base_config"))
            continue;
        const char *base;
        st = scalar_name(&d, node(&d, p->value), "base_config", "expected a file name", &base);
        if (st)
            break;
        char parent[4096];
        path_beside(parent, sizeof parent, path, base, 0);
        st = apply_chain(c, parent, NULL, 0, depth + 1);
    }
    if (!st)
        st = apply_doc(c, &d, RULES_REPLACE);
    doc_free(&d);
    return st;
}

/* models/<name>.yml beside `config_path`, or one folder up; "" if neither. */
static void model_file(char *out, size_t cap, const char *config_path, const char *model_name)
{
    char rel[4096 - 16];
    const char *instruct = strstr(model_name, "-Instruct");
    int keep = instruct ? (int)(instruct - model_name) : (int)strlen(model_name);
    snprintf(rel, sizeof rel, "models/%.*s%s.yml", keep, model_name,
             instruct ? instruct + strlen("-Instruct") : "");
    path_beside(out, cap, config_path, rel, 0);
    if (file_exists(out))
        return;
    path_beside(out, cap, config_path, rel, 1);
    if (!file_exists(out))
        out[0] = '\0';
}

static ss_status parse_override(mt_doc *d, const char *text, int index)
{
    const char *eq = strchr(text, '=');
    char name[32];
    snprintf(name, sizeof name, "override %d", index + 1);
    ss_status st = ss_name_intern(name, &d->file);
    if (st)
        return st;
    if (!eq || eq == text)
        return ss__fail(SS_ERR_PARSE, "override '%s': expected KEY=VALUE", text);
    size_t len = strlen(text) + 2;
    char *yaml = malloc(len);
    if (!yaml)
        return ss__fail(SS_ERR_NOMEM, "override '%s': out of memory", text);
    snprintf(yaml, len, "%.*s: %s", (int)(eq - text), text, eq + 1);
    st = doc_parse(d, yaml, strlen(yaml));
    free(yaml);
    return st;
}

static ss_status load(const char *path, const char *text, size_t len, const char *model_path,
                      int noverrides, const char *const overrides[], ss_maxtext_config **out)
{
    if (!out || !path || noverrides < 0 || (noverrides && !overrides))
        return ss__fail(SS_ERR_INVALID, "ss_maxtext_config_load: bad arguments");
    *out = NULL;
    ss_maxtext_config *c = calloc(1, sizeof *c);
    mt_doc *ov = calloc((size_t)noverrides + 1, sizeof *ov);
    if (!c || !ov) {
        free(c);
        free(ov);
        return ss__fail(SS_ERR_NOMEM, "%s: out of memory", path);
    }
    c->num_slices = -1;
    ss_status st = apply_chain(c, path, text, len, 0);
    for (int i = 0; !st && i < noverrides; i++)
        st = parse_override(&ov[i], overrides[i], i);
    /* model_name as the file and the overrides leave it picks the model file. */
    const char *model_name = c->model_name;
    for (int i = 0; !st && i < noverrides; i++) {
        ss_maxtext_config probe = {.num_slices = -1};
        st = apply_doc(&probe, &ov[i], RULES_REPLACE);
        if (probe.model_name)
            model_name = probe.model_name;
        ss_rules_free(&probe.rules);
        free(probe.params);
    }
    char found[4096] = "";
    if (!st && model_path)
        snprintf(found, sizeof found, "%s", model_path);
    else if (!st && model_name && strcmp(model_name, "default") != 0)
        model_file(found, sizeof found, path, model_name);
    if (!st && found[0]) {
        mt_doc m = {.loaded = false};
        st = doc_load_file(&m, found);
        if (!st)
            st = apply_doc(c, &m, RULES_MERGE);
        doc_free(&m);
    }
    for (int i = 0; !st && i < noverrides; i++)
        st = apply_doc(c, &ov[i], RULES_MERGE);
    for (int i = 0; i < noverrides; i++)
        doc_free(&ov[i]);
    free(ov);
    if (!st && c->naxes == 0)
        st = ss__fail(SS_ERR_PARSE, "%s: no mesh_axes (neither the file, its base_config "
                                    "chain nor the model file sets them)", path);
    if (st) {
        ss_maxtext_config_free(c);
        return st;
    }
    *out = c;
    return SS_OK;
}

ss_status ss_maxtext_config_load(const char *path, const char *model_path, int noverrides,
                                 const char *const overrides[], ss_maxtext_config **out)
{
    return load(path, NULL, 0, model_path, noverrides, overrides, out);
}

ss_status ss__maxtext_config_parse(const char *name, const char *text, size_t len,
                                   int noverrides, const char *const overrides[],
                                   ss_maxtext_config **out)
{
    if (!text || !name)
        return ss__fail(SS_ERR_INVALID, "ss__maxtext_config_parse: NULL argument");
    return load(name, text, len, NULL, noverrides, overrides, out);
}

void ss_maxtext_config_free(ss_maxtext_config *cfg)
{
    if (!cfg)
        return;
    ss_rules_free(&cfg->rules);
    free(cfg->params);
    free(cfg);
}

const ss_rules *ss_maxtext_config_rules(const ss_maxtext_config *cfg)
{
    return cfg ? &cfg->rules : NULL;
}

int ss_maxtext_config_mesh_axes(const ss_maxtext_config *cfg, const char **names)
{
    if (!cfg)
        return 0;
    for (int i = 0; names && i < cfg->naxes; i++)
        names[i] = cfg->axes[i];
    return cfg->naxes;
}

ss_status ss_maxtext_config_data_sharding(const ss_maxtext_config *cfg, ss_spec *out)
{
    if (!cfg || !out)
        return ss__fail(SS_ERR_INVALID, "ss_maxtext_config_data_sharding: NULL argument");
    memset(out, 0, sizeof *out);
    if (cfg->have_data_sharding)
        *out = cfg->data_sharding;
    return SS_OK;
}

int64_t ss__maxtext_param(const ss_maxtext_config *cfg, const char *key, int64_t dflt,
                          const char **where)
{
    for (int i = 0; i < cfg->nparams; i++)
        if (strcmp(cfg->params[i].key, key) == 0) {
            if (where)
                *where = cfg->params[i].where;
            return cfg->params[i].value;
        }
    if (where)
        *where = "";
    return dflt;
}
