/* The fast EMC array, clock by clock: the ALU (a microword on every chip that
 * can change, word-parallel over the bit planes), the deferred-carry log of
 * dark chips (applied when a chip's Carry is next needed), configuration
 * words and pp5_emc_step (see emc_int.h for the file map). */
#include "pp5/accel/emc_int.h"
/* ---- ALU ------------------------------------------------------------------ */

/* Can the Enable load give anything but 0 at a pixel whose E is 0? Operands
 * that do not depend on the pixel are known; the others range over 0 and 1. */
bool pp5_emcf_enable_stays_0_calc(const pp5_emc *e, const pp5_pins *p)
{
    int a0 = 1 ^ p->acmp, b0 = 1 ^ p->bcmp, c0 = 1 ^ p->ccmp;
    bool a_var = p->agts_s || p->agts_t, b_var = !p->bgts_e && p->bgts_m, c_var = p->cgts_c;
    if (p->bgts_e) b0 = p->bcmp; /* wired-AND with E = 0 */
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 2; c++) {
                if ((!a_var && a != a0) || (!b_var && b != b0) || (!c_var && c != c0)) continue;
                if (e->o.enable_table >> (a << 2 | b << 1 | c) & 1) return false;
            }
    return true;
}

/* The same through a table of the eight operand pins (the edge words ask
 * once a word; the answer depends on the pins and the Enable table only):
 * e->es0[key] 0 = not known yet, 1 = false, 2 = true. Pins other than 0/1
 * (not from an IGC) are not cached. */
static inline bool enable_stays_0(pp5_emc *e, const pp5_pins *p)
{
    uint64_t ops;
    memcpy(&ops, &p->acmp, 8); /* acmp, agts_s, agts_t, bcmp, bgts_e, bgts_m, ccmp, cgts_c */
    if (ops & ~0x0101010101010101ull) return pp5_emcf_enable_stays_0_calc(e, p);
    unsigned key = (unsigned)((ops * 0x0102040810204080ull) >> 56); /* (the eight bit-0s as one byte) */
    if (!e->es0[key]) e->es0[key] = (uint8_t)(1 + pp5_emcf_enable_stays_0_calc(e, p));
    return e->es0[key] == 2;
}


/* One microcycle on wpc words of one chip, without branches: every effect is
 * a mask (0 when the word does not have it). */
static inline __attribute__((always_inline)) void alu_words(const pp5_emc *e, const alu_word *u, size_t wpc,
                                                            bool std, uint64_t *m, uint64_t *en, uint64_t *cy,
                                                            const uint64_t *s, const uint64_t *t, uint64_t *snap)
{
    for (size_t w = 0; w < wpc; w++) {
        /* each bus is a wired-AND of its selected sources (1 if none) XOR its Cmp bit */
        uint64_t E = en[w], M = m[w], K = cy[w], S = s[w];
        uint64_t A = ((S | u->ss) & (t[w] | u->ts)) ^ u->acm;
        uint64_t B = ((E | u->es) & (M | u->ms)) ^ u->bcm;
        uint64_t C = (K | u->cs) ^ u->ccm;
        uint64_t sum, ca, ev;
        if (std) { /* A-9 defaults */
            sum = A ^ B ^ C;
            ca = ev = (A & B) | (C & (A | B));
        } else {
            sum = pp5_emc_truth(e->o.sum_table, A, B, C);
            ca = pp5_emc_truth(e->o.carry_table, A, B, C);
            ev = pp5_emc_truth(e->o.enable_table, A, B, C);
        }
        uint64_t wm = (E | u->w_ungated) & u->w_on;  /* */
        uint64_t lg = E | u->l_ungated;
        snap[w] = (M & u->snap_read) | (sum & u->snap_sum) | (snap[w] & u->snap_keep); /* */
        m[w] = M ^ ((M ^ sum) & wm);
        cy[w] = K ^ ((K ^ ca) & lg & u->c_on);
        en[w] = E ^ ((E ^ ev) & lg & u->e_on);
    }
}

/* The common case, one 16×16 chip = 4 words = one 256-bit vector, A-9
 * default tables, S = the previous read: eight variants by which of MWrt,
 * LdC, LdE the word has, so each stores only what it changes. GCC/clang
 * vector extensions; on x86-64 an AVX2 clone is picked at load time. */

static inline __attribute__((always_inline)) void kernel4(const alu_word *u, uint64_t *m, uint64_t *en,
                                                          uint64_t *cy, const uint64_t *s, const uint64_t *t,
                                                          uint64_t *snap, bool wr, bool lc, bool le)
{
    v4u E, M, K, S, T;
    LD4(E, en);
    LD4(M, m);
    LD4(K, cy);
    LD4(S, s);
    LD4(T, t);
    v4u A = ((S | SPLAT4(u->ss)) & (T | SPLAT4(u->ts))) ^ SPLAT4(u->acm); /* */
    v4u B = ((E | SPLAT4(u->es)) & (M | SPLAT4(u->ms))) ^ SPLAT4(u->bcm);
    v4u C = (K | SPLAT4(u->cs)) ^ SPLAT4(u->ccm);
    v4u lg = E | SPLAT4(u->l_ungated);
    v4u maj = (A & B) | (C & (A | B)); /* */
    if (wr) {
        v4u nm = M ^ ((M ^ (A ^ B ^ C)) & (E | SPLAT4(u->w_ungated))); /* */
        ST4(snap, M); /* the new S is M before the write */
        ST4(m, nm);
    }
    if (lc) {
        v4u nk = K ^ ((K ^ maj) & lg);
        ST4(cy, nk);
    }
    if (le) {
        v4u ne = E ^ ((E ^ maj) & lg);
        ST4(en, ne);
    }
}

/* The chips of list[0..n) (4 words each), T and S planes given per chip
 * (tp, sp NULL: the operand is not selected, any zero words do). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target_clones("avx2", "default")))
#endif
static void alu_many4(const alu_word *u, const int *list, int n, const uint64_t *const *tp,
                      const uint64_t *const *sp, uint64_t *snap_base)
{
#define ALU_MANY4(wr, lc, le)                                                                      \
    for (int i = 0; i < n; i++) {                                                                  \
        size_t off = (size_t)list[i] * 4;                                                          \
        kernel4(u, u->m_base + off, u->e_base + off, u->c_base + off, sp ? sp[i] : u->zero_base,      \
                tp ? tp[i] : u->zero_base, snap_base + off,                                          \
                wr, lc, le);                                                                       \
    }                                                                                              \
    break;
    switch ((u->write ? 1 : 0) | (u->ldc ? 2 : 0) | (u->lde ? 4 : 0)) {
    case 1: ALU_MANY4(true, false, false)
    case 2: ALU_MANY4(false, true, false)
    case 3: ALU_MANY4(true, true, false)
    case 4: ALU_MANY4(false, false, true)
    case 5: ALU_MANY4(true, false, true)
    case 6: ALU_MANY4(false, true, true)
    case 7: ALU_MANY4(true, true, true)
    default: break;
    }
#undef ALU_MANY4
}

static void alu_chip(pp5_emc *e, const alu_word *u, int c, uint64_t new_gen)
{
    size_t wpc = (size_t)e->wpc, off = (size_t)c * wpc;
    uint64_t *m = u->m_base + off, *en = u->e_base + off, *cy = u->c_base + off;
    const uint64_t *t = u->need_t ? tree_plane(e, c, !u->lde) : u->zero_base + off;
    const uint64_t *s = !u->need_s ? u->zero_base + off
                      : e->s_gen[c] == e->gen ? e->s_snap + off : u->s_base + off;
    uint64_t *snap = e->s_snap + off;
    if (u->std) alu_words(e, u, wpc, true, m, en, cy, s, t, snap);
    else alu_words(e, u, wpc, false, m, en, cy, s, t, snap);
    if (u->save_read || u->keep_sum) e->s_gen[c] = new_gen;
    if (u->lde) update_lit(e, c);
}

/* Apply chip c's deferred Carry updates (E was 0 for all of them). */
void pp5_emcf_flush_chip(pp5_emc *e, int c)
{
    if (e->hole_hi > e->hole_lo) pp5_emcf_log_fill(e);
    size_t wpc = (size_t)e->wpc;
    uint64_t *cy = plane(e, PL_CARRY, c);
    const uint64_t *zero = plane(e, PL_ZERO, c);
    bool std = e->o.carry_table == 0xE8;
    for (int i = pend_start(e, c); i < e->log_len; i++) {
        const defer_op *d = &e->log[i];
        const defer_word *u = &d->u;
        const uint64_t *t = u->need_t && d->set_ix >= 0 ? tree_bit(e, c, &e->arch[d->set_ix], d->k, false) : zero;
        const uint64_t *s = u->need_s && d->s_addr >= 0 ? plane(e, d->s_addr, c) : zero;
        const uint64_t *m = plane(e, u->addr, c);
        for (size_t w = 0; w < wpc; w++) {
            uint64_t A = ((s[w] | u->ss) & (t[w] | u->ts)) ^ u->acm;
            uint64_t B = (u->es & (m[w] | u->ms)) ^ u->bcm; /* E = 0 */
            uint64_t C = (cy[w] | u->cs) ^ u->ccm;
            cy[w] = std ? (A & B) | (C & (A | B)) : pp5_emc_truth(e->o.carry_table, A, B, C);
        }
    }
    e->pend_from[c] = -1;
    e->pend[c >> 6] &= ~(1ull << (c & 63));
}

void pp5_emcf_flush_all(pp5_emc *e)
{
    for (int wd = 0; wd * 64 < e->nchips; wd++)
        while (e->pend[wd]) pp5_emcf_flush_chip(e, wd * 64 + __builtin_ctzll(e->pend[wd]));
    log_clear(e);
}

/* Chip c executes microword u: its deferred Carry updates are dropped when u
 * overwrites Carry without reading it, applied first when u reads Carry or
 * writes memory (which they read), and otherwise left pending. */
static inline void settle_pending(pp5_emc *e, const alu_word *u, int c)
{
    if (chip_pending(e, c)) {
        if (u->ldc && !u->reads_c) drop_pending(e, c);
        else if (u->reads_c || u->write) pp5_emcf_flush_chip(e, c);
    }
}

/* Chips wd·64 + (bits of mask) join the list, their pending Carry settled. */
static inline void add_chips(pp5_emc *e, const alu_word *u, int wd, uint64_t mask, int *list, int *n)
{
    for (uint64_t p = mask & e->pend[wd]; p; p &= p - 1) settle_pending(e, u, wd * 64 + __builtin_ctzll(p));
    int k = *n; /* (a local count: the stores through n do not alias list) */
    for (; mask; mask &= mask - 1) list[k++] = wd * 64 + __builtin_ctzll(mask);
    *n = k;
}

/* The chips of list[0..n) execute microword u (pending Carry settled). */
static void exec_list(pp5_emc *e, const alu_word *u, const int *list, int n, uint64_t new_gen)
{
    if (!u->fast4) {
        for (int i = 0; i < n; i++) alu_chip(e, u, list[i], new_gen);
        return;
    }
    const uint64_t *tp[256], *sp[256];
    if (u->need_t && u->lde && pp5_emcf_sign_exec(e, u, list, n, NULL)) return; /* (an edge's sign: the whole word) */
    if (u->need_t && u->lde) pp5_emcf_sign_planes(e, list, n, tp); /* (E loads test a sign) */
    else if (u->need_t)
        for (int i = 0; i < n; i++) tp[i] = tree_plane(e, list[i], true);
    if (u->need_s)
        for (int i = 0; i < n; i++) {
            size_t off = (size_t)list[i] * 4;
            sp[i] = e->s_gen[list[i]] == e->gen ? e->s_snap + off : u->s_base + off;
        }
    alu_many4(u, list, n, u->need_t ? tp : NULL, u->need_s ? sp : NULL, e->s_snap);
    if (u->save_read)
        for (int i = 0; i < n; i++) e->s_gen[list[i]] = new_gen;
    if (u->lde)
        for (int i = 0; i < n; i++) update_lit(e, list[i]);
}

/* The log entry for this microword (created on first use). */
static int defer_entry(pp5_emc *e, const alu_word *u, int *entry)
{
    if (*entry >= 0) return *entry;
    if (e->log_len == e->log_cap) {
        int nc = e->log_cap ? 2 * e->log_cap : 256;
        defer_op *n = realloc(e->log, (size_t)nc * sizeof *n);
        if (!n) return -1;
        e->log = n;
        e->log_cap = nc;
    }
    defer_op *d = &e->log[e->log_len];
    d->u = (defer_word){u->ss, u->ts, u->es, u->ms, u->cs, u->acm, u->bcm, u->ccm, u->addr, u->need_t, u->need_s};
    d->s_addr = e->s_addr;
    d->set_ix = -1;
    d->k = 0;
    if (u->need_t && e->rt_set >= 0 && e->rt_k < 128) {
        const qee_set *s = &e->set[e->rt_set];
        if (!(e->arch_len > 0 && e->arch[e->arch_len - 1].uid == s->uid && e->arch[e->arch_len - 1].m == s->m)) {
            if (e->arch_len == e->arch_cap) {
                int nc = e->arch_cap ? 2 * e->arch_cap : 64;
                qee_set *n = realloc(e->arch, (size_t)nc * sizeof *n);
                if (!n) return -1;
                e->arch = n;
                e->arch_cap = nc;
            }
            e->arch[e->arch_len++] = *s;
        }
        d->set_ix = e->arch_len - 1;
        d->k = e->rt_k;
    }
    *entry = e->log_len++;
    return *entry;
}

/* The microword of pins p at latched address addr, as masks. */
static void word_setup(const pp5_emc *e, const pp5_pins *p, int addr, alu_word *up)
{
    bool valid = addr < PP5_EMC_MEM_BITS;
    alu_word u;
    u.addr = valid ? addr : PL_ZERO;
    u.ss = p->agts_s ? 0 : ~0ull;
    u.ts = p->agts_t ? 0 : ~0ull;
    u.es = p->bgts_e ? 0 : ~0ull;
    u.ms = p->bgts_m ? 0 : ~0ull;
    u.cs = p->cgts_c ? 0 : ~0ull;
    u.acm = p->acmp ? ~0ull : 0;
    u.bcm = p->bcmp ? ~0ull : 0;
    u.ccm = p->ccmp ? ~0ull : 0;
    u.write = p->mwrt && valid;
    u.ldc = p->ldc;
    u.lde = p->lde;
    u.std = e->o.sum_table == 0x96 && e->o.carry_table == 0xE8 && e->o.enable_table == 0xE8;
    u.gate_w = e->o.mwrt_gated_by_e;
    u.gate_l = e->o.loads_gated_by_e;
    bool prev_read = e->o.s_source == PP5_S_PREV_READ;
    u.save_read = prev_read && u.write;
    u.keep_sum = !prev_read;
    u.need_t = p->agts_t;
    u.need_s = p->agts_s;
    u.reads_c = p->cgts_c;
    u.w_ungated = u.gate_w ? 0 : ~0ull;
    u.w_on = u.write ? ~0ull : 0;
    u.l_ungated = u.gate_l ? 0 : ~0ull;
    u.c_on = u.ldc ? ~0ull : 0;
    u.e_on = u.lde ? ~0ull : 0;
    u.snap_read = u.save_read ? ~0ull : 0;
    u.snap_sum = u.keep_sum ? ~0ull : 0;
    u.snap_keep = ~(u.snap_read | u.snap_sum);
    u.fast4 = u.std && prev_read && e->wpc == 4;
    u.m_base = plane(e, u.addr, 0); /* invalid: the zero plane, never changed (write is off) */
    u.e_base = plane(e, PL_E, 0);
    u.c_base = plane(e, PL_CARRY, 0);
    u.zero_base = plane(e, PL_ZERO, 0);
    u.s_base = e->s_addr >= 0 ? plane(e, e->s_addr, 0) : u.zero_base;
    *up = u;
}

static void alu(pp5_emc *e, const pp5_pins *p, int addr)
{
    bool valid = addr < PP5_EMC_MEM_BITS;
    if (!valid) e->warnings++; /* reads 0, writes ignored */
    alu_word u;
    word_setup(e, p, addr, &u);
    bool prev_read = e->o.s_source == PP5_S_PREV_READ;
    uint64_t new_gen = e->gen + 1;
    if (e->log_len && !(e->pend[0] | e->pend[1] | e->pend[2] | e->pend[3])) log_clear(e);
    if (e->log_len >= LOG_LIMIT) pp5_emcf_flush_all(e);
    if (prev_read && !u.write && !u.gate_l && !p->agts_s && !p->agts_t && !p->bgts_e && !p->bgts_m &&
        !p->cgts_c) {
        /* No operand depends on the pixel (ENABLE_ALL, the z-test's Carry preset):
         * Carry and E become constants everywhere — two plane fills. */
        int idx = (1 ^ (p->acmp & 1)) << 2 | (1 ^ (p->bcmp & 1)) << 1 | (1 ^ (p->ccmp & 1));
        if (u.ldc) {
            int v = e->o.carry_table >> idx & 1;
            if (e->carry_fill != v + 1) { /* (the z-test repeats its preset while it waits) */
                uint64_t *cy = plane(e, PL_CARRY, 0);
                memset(cy, v ? 0xff : 0, e->pw * sizeof *cy);
                e->carry_fill = v + 1;
            }
            memset(e->pend, 0, sizeof e->pend); /* overwritten, never read: nothing pending */
        }
        if (u.lde) {
            int v = e->o.enable_table >> idx & 1;
            memset(plane(e, PL_E, 0), v ? 0xff : 0, e->pw * sizeof(uint64_t));
            for (int wd = 0; wd * 64 < e->nchips; wd++) {
                int nw = e->nchips - wd * 64;
                e->eany[wd] = v ? (nw >= 64 ? ~0ull : (1ull << nw) - 1) : 0;
            }
        }
        e->s_addr = valid ? addr : -1; /* S follows the read */
        e->gen = new_gen;
        return;
    }
    if (u.ldc) e->carry_fill = 0; /* Carry may change below (and deferred updates change it later) */
    /* What the word does to a chip whose E is all 0: a write or a load
     * not gated by E, or S taking the sum (A-10 alternative). */
    bool dark_mem = u.write && !u.gate_w, dark_carry = u.ldc && !u.gate_l;
    bool dark_en = u.lde && !u.gate_l && !enable_stays_0(e, p);
    int list[256], n = 0;
    if (!prev_read || dark_mem || dark_en) {
        for (int wd = 0; wd * 64 < e->nchips; wd++) {
            int nw = e->nchips - wd * 64;
            add_chips(e, &u, wd, nw >= 64 ? ~0ull : (1ull << nw) - 1, list, &n);
        }
    } else if (dark_carry) {
        /* Carry only: dark chips defer it when it needs T (the costly operand);
         * chip sets as bit masks, 64 chips a word */
        int entry = -1;
        uint64_t run[4], dark[4];
        for (int wd = 0; wd * 64 < e->nchips; wd++) {
            int nw = e->nchips - wd * 64;
            uint64_t all = nw >= 64 ? ~0ull : (1ull << nw) - 1;
            run[wd] = e->eany[wd];
            if (u.need_s) /* S is a snapshot there: not kept in the log */
                for (int i = 0; i < 64 && i < nw; i++)
                    if (e->s_gen[wd * 64 + i] == e->gen) run[wd] |= 1ull << i;
            dark[wd] = all & ~run[wd];
            /* the executing chips settle first: their pending entries end before this word */
            add_chips(e, &u, wd, run[wd], list, &n);
        }
        for (int wd = 0; wd * 64 < e->nchips; wd++) {
            if (!u.reads_c) e->pend[wd] &= ~dark[wd]; /* Carry overwritten: drop what was pending */
            uint64_t later = u.need_t ? dark[wd] : dark[wd] & e->pend[wd], now = dark[wd] & ~later;
            if (later && defer_entry(e, &u, &entry) < 0) { /* out of memory: do it now */
                for (uint64_t r = later; r; r &= r - 1) {
                    int c = wd * 64 + __builtin_ctzll(r);
                    if (chip_pending(e, c)) pp5_emcf_flush_chip(e, c);
                    list[n++] = c;
                }
                later = 0;
            }
            for (uint64_t fresh = later & ~e->pend[wd]; fresh; fresh &= fresh - 1)
                pend_set(e, wd * 64 + __builtin_ctzll(fresh), entry);
            e->pend[wd] |= later;
            for (; now; now &= now - 1) list[n++] = wd * 64 + __builtin_ctzll(now); /* nothing pending */
        }
    } else if (u.fast4 && u.need_t && u.lde && !u.write && !u.ldc && !u.reads_c &&
               pp5_emcf_sign_exec(e, &u, NULL, 0, (uint64_t[4]){e->eany[0], e->eany[1], e->eany[2], e->eany[3]})) {
        /* an edge's sign on the lit chips, done (no list: their pending Carry
         * stays, as settle_pending leaves it for a word that neither loads nor
         * reads Carry nor writes) */
        n = -1;
    } else {
        for (int wd = 0; wd * 64 < e->nchips; wd++) add_chips(e, &u, wd, e->eany[wd], list, &n);
    }
    if (n >= 0) exec_list(e, &u, list, n, new_gen);
    /* S for the next microcycle: chips that wrote hold a snapshot; the
     * others read plane addr unchanged */
    if (prev_read) e->s_addr = valid ? addr : -1;
    else e->s_addr = -1;
    e->gen = new_gen;
}

/* S follows the read of a word that changes nothing (A-10 default) */
static void sense_only(pp5_emc *e, int addr)
{
    if (e->o.s_source != PP5_S_PREV_READ) return;
    e->s_addr = addr < PP5_EMC_MEM_BITS ? addr : -1;
    e->gen++;
}

/* A configuration word's shift (the latched AddrL lo, AddrH hi; its ACmp pin acmp). */
void pp5_emcf_config_word(pp5_emc *e, unsigned lo, unsigned hi, uint8_t acmp)
{
    /* chip k takes address bit i from AddrH where bit i of k is 1;
     * selected when the address it sees, (AddrL & ~k) | (AddrH & k), is
     * all 0, i.e. k ⊇ AddrL and k ∩ AddrH = ∅: the selected chips are
     * AddrL | (a subset of the bits in neither), enumerated directly
     * (paired addressing: exactly chip AddrL); shifts in the ACmp pin */
    unsigned free = ~(lo | hi) & 0xffu;
    if (lo & hi) return;
    uint32_t in = (uint32_t)(acmp & 1) << 21;
    unsigned sub = 0;
    do {
        int k = (int)(lo | sub); /* (chip numbers are < 256: k's 8 bits are all of it) */
        if (k < e->nchips) {
            if (chip_pending(e, k)) pp5_emcf_flush_chip(e, k);
            e->config[k] = (e->config[k] >> 1) | in;
            e->groups_dirty = true;
        }
        sub = (sub - free) & free; /* the next subset of free */
    } while (sub);
}

/* The word part of one clock (after the QEE shift, before the pin latches). */
void pp5_emcf_step_word(pp5_emc *e, const pp5_pins *p)
{
    int addr = e->lat_addr_l;
    if (p->redundant) {
        /* redundant code; ExtOp strobes are logged */
        for (int i = 0; i < 6; i++)
            if (p->extop >> i & 1) e->extops[i]++;
        if (p->config_mode) pp5_emcf_config_word(e, e->lat_addr_l, e->lat_addr_h, p->acmp);
        sense_only(e, addr);
    } else if (p->ldc || p->lde || p->mwrt) {
        alu(e, p, addr);
    } else {
        /* no state change: only the sense latch S follows the read */
        sense_only(e, addr);
    }
}

void pp5_emc_step(pp5_emc *e, const pp5_pins *p)
{
    seg_settle(e);
    if (p->trst) qee_step(e);
    pp5_emcf_step_word(e, p);
    latch_pins(e, p);
}
