/* The fuzzer's reducer: delta debugging over the shader AST driven by a
 * predicate (include/lockstep/mesa_fuzz.h, docs/mesa-fuzz.md "Reducer").
 *
 * Every candidate is a copy of the current program with one edit at one node
 * (numbered in pre-order). A candidate is kept when it is well formed
 * (fz_program_valid), strictly cheaper (cost below: so reduction ends) and the
 * predicate still holds. Passes go over the tree from the root until a whole
 * pass keeps nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/mesa_fuzz.h"

/* A size that every edit lowers: nodes, plus extra weight for what a reader
 * must still think about (uniform reads, non-trivial constants, loop trip
 * counts, compound assignments, else branches). */
static size_t cost(const fz_program *p, const fz_node *n)
{
    size_t c = 2;
    switch (n->kind) {
    case FZ_CONST:
        c = 1;
        for (int i = 0; i < n->width; i++)
            if (n->val[i] != 0 && n->val[i] != 1)
                c = 2;
        break;
    case FZ_VAR:
        c = p->vars[n->op].kind == FZ_VAR_UNIFORM ? 3 : 2;
        break;
    case FZ_BOOL: c = 1; break;
    case FZ_LOOP:
        c = 3 + (n->uni >= 0 ? 3 : 0) + (n->uni < 0 && n->ival > 1 ? 1 : 0) + (n->aux != FZ_FOR);
        break;
    case FZ_ASSIGN:
    case FZ_OUT: c = 2 + (n->aux != 0) + (n->nswz != 0); break;
    default: break;
    }
    for (int i = 0; i < n->nkids; i++)
        c += cost(p, n->kids[i]);
    return c;
}

/* The k-th node in pre-order, its parent and its index there. */
typedef struct found {
    fz_node *node, *parent;
    int slot;
} found;

static bool find(fz_node *n, fz_node *parent, int slot, size_t *k, found *f)
{
    if (*k == 0) {
        f->node = n;
        f->parent = parent;
        f->slot = slot;
        return true;
    }
    (*k)--;
    for (int i = 0; i < n->nkids; i++)
        if (find(n->kids[i], n, i, k, f))
            return true;
    return false;
}

static bool is_expr(fz_kind k) { return k >= FZ_CONST && k <= FZ_CTOR; }
static bool is_cond(fz_kind k) { return k >= FZ_CMP && k <= FZ_BOOL; }

/* Replace parent->kids[slot] by the kids of block b (b is consumed). */
static bool splice(fz_node *parent, int slot, fz_node *b)
{
    int n = parent->nkids - 1 + b->nkids;
    fz_node **k = calloc((size_t)(n > 0 ? n : 1), sizeof *k);
    if (!k)
        return false;
    int j = 0;
    for (int i = 0; i < slot; i++)
        k[j++] = parent->kids[i];
    for (int i = 0; i < b->nkids; i++)
        k[j++] = b->kids[i];
    for (int i = slot + 1; i < parent->nkids; i++)
        k[j++] = parent->kids[i];
    fz_node *old = parent->kids[slot];
    free(parent->kids);
    parent->kids = k;
    parent->nkids = n;
    b->nkids = 0; /* its kids moved */
    if (old != b)
        fz_node_free(old);
    fz_node_free(b);
    return true;
}

static void delete_range(fz_node *parent, int from, int count)
{
    for (int i = from; i < from + count; i++)
        fz_node_free(parent->kids[i]);
    memmove(parent->kids + from, parent->kids + from + count,
            (size_t)(parent->nkids - from - count) * sizeof *parent->kids);
    parent->nkids -= count;
}

static void replace(fz_node *parent, int slot, fz_node *with)
{
    fz_node *old = parent->kids[slot];
    parent->kids[slot] = with;
    fz_node_free(old);
}

/* Detach kid i of n (so freeing n keeps it). */
static fz_node *take(fz_node *n, int i)
{
    fz_node *k = n->kids[i];
    n->kids[i] = fz_node_new(FZ_BOOL);
    return k;
}

#define EDITS 16

/* Apply edit e at f. Returns false when the edit does not apply there. */
static bool apply(fz_program *p, found *f, int e)
{
    fz_node *n = f->node, *par = f->parent;
    if (!par)
        return false;
    if (par->kind == FZ_BLOCK) {
        /* statements */
        if (e == 0) { /* delete the rest of the block from here, in halves */
            int rest = par->nkids - f->slot;
            if (rest < 4)
                return false;
            delete_range(par, f->slot, rest / 2);
            return true;
        }
        if (e == 1) {
            delete_range(par, f->slot, 1);
            return true;
        }
        if (n->kind == FZ_IF) {
            if (e == 2)
                return splice(par, f->slot, take(n, 1));
            if (e == 3 && n->nkids > 2)
                return splice(par, f->slot, take(n, 2));
            if (e == 4 && n->nkids > 2) {
                fz_node_free(n->kids[2]);
                n->nkids = 2;
                return true;
            }
            return false;
        }
        if (n->kind == FZ_LOOP) {
            if (e == 2)
                return splice(par, f->slot, take(n, 0));
            if (e == 3 && n->uni >= 0) {
                n->ival = (int)p->vars[n->uni].value[0];
                n->uni = -1;
                return true;
            }
            if (e == 4 && (n->uni >= 0 || n->ival > 1)) {
                n->uni = -1;
                n->ival = 1;
                return true;
            }
            if (e == 5 && n->aux != FZ_FOR) {
                /* the while forms count 1..N, the for form 0..N-1: the
                 * predicate decides whether that matters */
                n->aux = FZ_FOR;
                return true;
            }
            return false;
        }
        if ((n->kind == FZ_ASSIGN || n->kind == FZ_OUT) && e == 2 && n->aux != 0) {
            n->aux = 0;
            return true;
        }
        if ((n->kind == FZ_ASSIGN || n->kind == FZ_OUT) && e == 3 && n->nswz) {
            /* t.xyzw = e  ->  t = e (a full mask in order) */
            int w = n->kind == FZ_OUT ? 4 : p->vars[n->op].width;
            bool in_order = n->nswz == w;
            for (int c = 0; in_order && c < w; c++)
                in_order = n->swz[c] == c;
            if (!in_order)
                return false;
            n->nswz = 0;
            return true;
        }
        return false;
    }
    if (is_cond(n->kind)) {
        if (e == 0 || e == 1) {
            if (n->kind == FZ_BOOL)
                return false;
            fz_node *b = fz_node_new(FZ_BOOL);
            if (!b)
                return false;
            b->ival = e == 0;
            replace(par, f->slot, b);
            return true;
        }
        if ((n->kind == FZ_AND || n->kind == FZ_OR || n->kind == FZ_NOT) && e - 2 < n->nkids) {
            replace(par, f->slot, take(n, e - 2));
            return true;
        }
        return false;
    }
    if (!is_expr(n->kind))
        return false;
    /* expressions: a kid of the same width, a constant, a uniform's value */
    if (e < n->nkids) {
        if (n->kids[e]->width != n->width)
            return false;
        replace(par, f->slot, take(n, e));
        return true;
    }
    e -= 4;
    if (e == 0 || e == 1) {
        if (n->kind == FZ_CONST) {
            bool all = true;
            for (int i = 0; i < n->width; i++)
                all = all && n->val[i] == (double)(e == 0 ? 0 : 1);
            if (all)
                return false;
            for (int i = 0; i < n->width; i++)
                n->val[i] = e == 0 ? 0 : 1;
            return true;
        }
        fz_node *c = fz_node_new(FZ_CONST);
        if (!c)
            return false;
        c->width = n->width;
        for (int i = 0; i < n->width; i++)
            c->val[i] = e == 0 ? 0 : 1;
        replace(par, f->slot, c);
        return true;
    }
    if (e == 2 && n->kind == FZ_VAR && p->vars[n->op].kind == FZ_VAR_UNIFORM) {
        fz_node *c = fz_node_new(FZ_CONST);
        if (!c)
            return false;
        c->width = n->width;
        memcpy(c->val, p->vars[n->op].value, sizeof c->val);
        replace(par, f->slot, c);
        return true;
    }
    if (e == 3 && n->kind == FZ_CONST) { /* round to halves */
        bool changed = false;
        for (int i = 0; i < n->width; i++) {
            double r = nearbyint(n->val[i] * 2) / 2;
            changed = changed || r != n->val[i];
            n->val[i] = r;
        }
        return changed;
    }
    if (e == 4 && n->kind == FZ_CONST) { /* round to integers */
        bool changed = false;
        for (int i = 0; i < n->width; i++) {
            double r = nearbyint(n->val[i]);
            changed = changed || r != n->val[i];
            n->val[i] = r;
        }
        return changed;
    }
    return false;
}

ls_status fz_reduce(fz_program *p, fz_predicate pred, void *ctx, size_t max_tries,
                    fz_reduce_stats *st, ls_diag *d)
{
    fz_reduce_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    st->size_before = fz_program_size(p);
    size_t cur_cost = cost(p, p->main);
    bool progress = true;
    while (progress) {
        progress = false;
        for (size_t k = 1; k < fz_program_size(p); k++) {
            for (int e = 0; e < EDITS; e++) {
                if (max_tries && st->tried >= max_tries)
                    goto done;
                fz_program cand;
                if (!fz_program_clone(p, &cand))
                    return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory reducing");
                size_t kk = k;
                found f = {0};
                bool ok = find(cand.main, NULL, 0, &kk, &f) && apply(&cand, &f, e);
                if (ok) {
                    size_t c = cost(&cand, cand.main);
                    ok = c < cur_cost && fz_program_valid(&cand);
                    if (ok) {
                        st->tried++;
                        ok = pred(&cand, ctx);
                    }
                    if (ok) {
                        fz_program_free(p);
                        *p = cand;
                        cur_cost = c;
                        st->accepted++;
                        progress = true;
                        e = -1; /* the node at k changed: try its edits again */
                        if (k >= fz_program_size(p))
                            break;
                        continue;
                    }
                }
                fz_program_free(&cand);
            }
        }
    }
done:
    st->size_after = fz_program_size(p);
    return LS_OK;
}
