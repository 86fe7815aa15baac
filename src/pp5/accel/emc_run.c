/* The fast EMC array: QEE, edge signs, ALU, deferred-carry log, block
 * segments and the run (see emc_int.h for the file map). */
#include "pp5/accel/emc_int.h"
/* ---- ALU ------------------------------------------------------------------ */

static inline uint64_t truth(uint8_t t, uint64_t a, uint64_t b, uint64_t c)
{
    if (t == 0x96) return a ^ b ^ c;
    if (t == 0xE8) return (a & b) | (c & (a | b));
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        if (t >> i & 1) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return r;
}

/* Can the Enable load give anything but 0 at a pixel whose E is 0? Operands
 * that do not depend on the pixel are known; the others range over 0 and 1. */
static bool enable_stays_0_calc(const pp5_emc *e, const pp5_pins *p)
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
    if (ops & ~0x0101010101010101ull) return enable_stays_0_calc(e, p);
    unsigned key = (unsigned)((ops * 0x0102040810204080ull) >> 56); /* (the eight bit-0s as one byte) */
    if (!e->es0[key]) e->es0[key] = (uint8_t)(1 + enable_stays_0_calc(e, p));
    return e->es0[key] == 2;
}


/* One microcycle on wpc words of one chip, without branches: every effect is
 * a mask (0 when the word does not have it). */
static inline __attribute__((always_inline)) void alu_words(const pp5_emc *e, const alu_word *u, size_t wpc,
                                                            bool std, uint64_t *m, uint64_t *en, uint64_t *cy,
                                                            const uint64_t *s, const uint64_t *t, uint64_t *snap)
{
    for (size_t w = 0; w < wpc; w++) {
        /* A-8: each bus is a wired-AND of its selected sources (1 if none) XOR its Cmp bit */
        uint64_t E = en[w], M = m[w], K = cy[w], S = s[w];
        uint64_t A = ((S | u->ss) & (t[w] | u->ts)) ^ u->acm;
        uint64_t B = ((E | u->es) & (M | u->ms)) ^ u->bcm;
        uint64_t C = (K | u->cs) ^ u->ccm;
        uint64_t sum, ca, ev;
        if (std) { /* A-9 defaults */
            sum = A ^ B ^ C;
            ca = ev = (A & B) | (C & (A | B));
        } else {
            sum = truth(e->o.sum_table, A, B, C);
            ca = truth(e->o.carry_table, A, B, C);
            ev = truth(e->o.enable_table, A, B, C);
        }
        uint64_t wm = (E | u->w_ungated) & u->w_on;  /* A-11 */
        uint64_t lg = E | u->l_ungated;
        snap[w] = (M & u->snap_read) | (sum & u->snap_sum) | (snap[w] & u->snap_keep); /* A-10 */
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
    v4u A = ((S | SPLAT4(u->ss)) & (T | SPLAT4(u->ts))) ^ SPLAT4(u->acm); /* A-8 */
    v4u B = ((E | SPLAT4(u->es)) & (M | SPLAT4(u->ms))) ^ SPLAT4(u->bcm);
    v4u C = (K | SPLAT4(u->cs)) ^ SPLAT4(u->ccm);
    v4u lg = E | SPLAT4(u->l_ungated);
    v4u maj = (A & B) | (C & (A | B)); /* A-9 */
    if (wr) {
        v4u nm = M ^ ((M ^ (A ^ B ^ C)) & (E | SPLAT4(u->w_ungated))); /* A-11 */
        ST4(snap, M); /* A-10: the new S is M before the write */
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
            cy[w] = std ? (A & B) | (C & (A | B)) : truth(e->o.carry_table, A, B, C);
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

static inline void drop_pending(pp5_emc *e, int c)
{
    e->pend_from[c] = -1;
    e->pend[c >> 6] &= ~(1ull << (c & 63));
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

enum { LOG_LIMIT = 1 << 14 };

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
    if (!valid) e->warnings++; /* A-16: reads 0, writes ignored */
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
        e->s_addr = valid ? addr : -1; /* S follows the read (A-10) */
        e->gen = new_gen;
        return;
    }
    if (u.ldc) e->carry_fill = 0; /* Carry may change below (and deferred updates change it later) */
    /* What the word does to a chip whose E is all 0 (A-11): a write or a load
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
    /* S for the next microcycle (A-10): chips that wrote hold a snapshot; the
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
static void config_word(pp5_emc *e, unsigned lo, unsigned hi, uint8_t acmp)
{
    /* A-14: chip k takes address bit i from AddrH where bit i of k is 1;
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
static void step_word(pp5_emc *e, const pp5_pins *p)
{
    int addr = e->lat_addr_l;
    if (p->redundant) {
        /* A-13: redundant code; ExtOp strobes are logged (A-23) */
        for (int i = 0; i < 6; i++)
            if (p->extop >> i & 1) e->extops[i]++;
        if (p->config_mode) config_word(e, e->lat_addr_l, e->lat_addr_h, p->acmp);
        sense_only(e, addr);
    } else if (p->ldc || p->lde || p->mwrt) {
        alu(e, p, addr);
    } else {
        /* no state change: only the sense latch S follows the read */
        sense_only(e, addr);
    }
}

static inline void latch_pins(pp5_emc *e, const pp5_pins *p)
{
    e->lat_addr_l = p->addr_l;
    e->lat_addr_h = p->addr_h;
    memcpy(e->lat_dat, p->dat, 6);
    e->lat_lsb = p->lsb;
}

void pp5_emc_step(pp5_emc *e, const pp5_pins *p)
{
    seg_settle(e);
    if (p->trst) qee_step(e);
    step_word(e, p);
    latch_pins(e, p);
}

/* ---- blocks of clocks (pp5_emc_run) -------------------------------------- */

/* Within a block the array runs chip-major: the words between two Enable
 * loads that can light a pixel or read T (or configuration words, or words
 * whose T bit is not final yet) form a segment; the QEE advances clock by clock as the segment is decoded (it
 * depends only on the pins), and when the segment ends each chip that can
 * change there runs all of its words in turn with Enable, Carry and S held in
 * registers. Chips are independent: a chip's state after a clock depends only
 * on its own state, the pins and its own T, so running them one after the
 * other gives the state of the clock-by-clock array. Within a segment E can
 * only go from 1 to 0: the Enable loads in it are of the E ← E ∧ f kind
 * (enable_stays_0: a pixel with E = 0 keeps it; the z-test's a=0 b=e c=~cy
 * lde), so a chip whose E is all 0 (dark) at the start stays dark and changes
 * only in Carry (writes are gated by E, A-11; LdC is not), and a running chip
 * whose E becomes all 0 at such a load stops there; their Carry updates join
 * the deferred log as pp5_emc_step would log them (seg_defer). An edge's
 * Enable load (it reads T) still ends the segment: sign_exec does it whole,
 * cheaper than the segment's adder for the chips the edge crosses. A segment also ends
 * before a new coefficient set takes the ring slot of a set it reads and after
 * SEG_MAX ops; at the end of the block it stays open (the next block carries
 * it on; pp5_emc_step, the accessors and the API writes run it first:
 * seg_settle). Only the A-9/A-10/A-11 defaults on chips of four words take
 * this path (other options step).
 *
 * Decoding a word is a template copy: the op's fields that depend only on the
 * eleven control pins and the address's validity are made once per array
 * (seg_tmpl_make, keyed by one 16-byte compare of the pins: pins_key). */

enum { SEG_MAX = 512 };
enum { S_INIT, S_PREV_M, S_PLANE };

typedef struct seg_op {
    /* the op's template (seg_tmpl: fixed by the control pins and the address's validity) */
    uint8_t write, ldc, lde, fill, fill_v, need_t, need_s, reads_c;
    uint8_t shape;          /* SH_*: a word of the library with a short kernel */
    uint8_t kind;           /* template only: OPK_* */
    uint8_t opm;            /* the operand masks of alu_word (each all 0 or all 1) as bits: OPM */
    /* (bytes up to here are copied from the template; the rest per op) */
    uint8_t s_mode;
    uint8_t t_same;         /* T is the previous T op's (same set and bit) */
    uint8_t run;            /* first op of a fused run (seg_fuse): its length in bits, else 0 */
    uint8_t k;
    int8_t set_ring;        /* T = bit k of e->set[set_ring]; -1: T = 0 */
    int16_t m_plane;        /* plane read (and written): addr, or PL_ZERO outside memory */
    int16_t s_plane;        /* S_PLANE: the plane the previous clock read */
    int16_t s_addr;         /* e->s_addr in this clock (-1: S = 0), for the log */
    int16_t ldc_rank;       /* Carry-loading ops before this one in the segment */
    uint64_t *m0;           /* chip 0's words of plane m_plane (chip c: + 4c) */
    const uint64_t *s0;     /* S_PLANE: chip 0's words of plane s_plane */
} seg_op;
#define SEG_TMPL_BYTES offsetof(seg_op, s_mode)
/* Operand mask b of op o (OPM_SS .. OPM_CCM: alu_word's ss .. ccm), kept as
 * one bit so that an op is 48 bytes, not 104: the decode writes and the chip
 * pass reads fewer lines. */
enum { OPM_SS, OPM_TS, OPM_ES, OPM_MS, OPM_CS, OPM_ACM, OPM_BCM, OPM_CCM };
#define OPM(o, b) ((uint64_t)0 - (uint64_t)((o)->opm >> (b) & 1))

/* What pp5_emc_run does with a word that changes something (seg_tmpl): join
 * the segment, or step it (an Enable load that reads T or can light a pixel);
 * a word that joins and changes nothing after all (its write outside memory)
 * only moves S (OPK_SENSE) */
enum { OPK_JOIN = 1, OPK_STEP, OPK_SENSE };

/* Templates: key = the eleven control pins acmp .. mwrt as bits 0..10 (the
 * pins' order) and the address's validity as bit 11 (pins_key). */
enum { TMPL_KEYS = 1 << 12, TMPL_MAX = 64 };

enum { SH_GENERIC, SH_WRITE_T, SH_WRITE_S, SH_CARRY_T_NM, SH_LDE_E_NC };
/* (SH_LDE_E_NC, the z-test's Enable load a=0 b=e c=~cy lde, is given by
 * seg_fuse, not by the template: the chip pass's own short kernel) */

/* A coefficient set the segment reads T from, as the chip pass sees it.
 * With the adder, what the chips of one column (row) share sits in the arena,
 * a slot per x (y) line: the range of P (R) over the line, made for every
 * running chip's line when the segment is flushed, and — when a chip's adder
 * first starts there (seg_line) — the 16-bit masks of P's (R's) bits klo ..
 * kmax (bit lx: column lx) and the low 64 bits of the 16 values. */
typedef struct seg_set {
    int kmin, kmax;         /* lowest and highest bit read */
    int klo, nb;            /* masks of bits klo .. klo+nb-1 */
    bool adder;             /* separable in bits 0..kmax, kmax ≤ 63, 16×16 chips, arena room */
    i128 co[6];             /* coefficients sign-extended from bit kmax (≡ the set's mod 2^(kmax+1)) */
    size_t xbase, ybase;    /* arena offsets of slot 0 */
    int nx, ny;
    /* lin: both parts linear and narrow (the z and colour planes): a chip's
     * min of Q is lin_lx·X0 + lin_ly·Y0 + lin_c and its max that + lin_w, all
     * mod 2^64 (seg_chip; the lines' ranges are not made) */
    bool lin;
    uint64_t lin_lx, lin_ly, lin_c, lin_w;
    /* made[a]: bit i, slot i's masks and low words made (seg_line, when a chip
     * first steps there); in the seg, not in the arena: a chip's test then
     * reads a line that stays in L1, not the slot's arena words, which the
     * planes of the chips before it have often evicted */
    uint64_t made[2][4];
} seg_set;

enum { SEG_LOWS = 16, SEG_RANGE = 4, SEG_SLOT_EXTRA = SEG_LOWS + SEG_RANGE };
/* per slot: nb masks, 16 low words, min and max (two i128; not made for a lin set) */

typedef struct seg {
    seg_op *op;             /* opbuf[0] or [1]: the other one may hold the log's hole (seg_defer) */
    seg_op opbuf[2][SEG_MAX];
    seg_set set[QEE_SETS];  /* by ring index */
    int n;                  /* ops (words that write or load Carry) */
    int clocks;             /* clocks decoded (ops and clocks that only read) */
    int prev_plane;         /* plane read in the last clock decoded (PL_ZERO: none) */
    bool prev_write;        /* the last clock decoded was a writing op */
    bool has_t;
    bool has_lde;           /* an op loads Enable (E ← E ∧ f: only darkens, enable_stays_0) */
    int nldc;               /* ops that load Carry */
    int last_ldc;           /* the last of them (-1: none) */
    int last_over;          /* the last op that loads Carry without reading it (a fill too; -1: none) */
    uint64_t min_uid;       /* oldest coefficient set an op reads T from */
    int last_t_ring, last_t_k; /* the last op reading T */
    /* the running chips' columns and rows (the same slots for every set) */
    int16_t xslot[256], yslot[256]; /* by chip of the lead: slot (set at the running chips' leads: seg_slots) */
    int16_t xl[256], yl[256];       /* slot -> lead chip */
    int nx, ny;
    bool slots_made;                /* for this segment's running chips */
    int16_t stop[256];      /* chip pass: a chip whose E became all 0 after op stop[c] - 1 stops there */
    uint64_t stopped[4];    /* those chips */
    uint64_t lit[4];        /* chip pass, has_lde: the running chips whose E is not all 0 at the end */
    unsigned ldc_rings;     /* sets that Carry-loading ops read T from (bit: ring index) */
    bool keep_ops;          /* the log's hole keeps this segment's op buffer (seg_defer) */
    uint64_t *pl0[NPLANES];  /* chip 0's words of each plane (plane(e, a, 0): the ops' m0 and s0 by one load) */
    uint16_t tmap[TMPL_KEYS]; /* key -> the template's byte offset in the seg (0: not made yet; an offset, not an
                               * index: no multiply in the decode's key -> template chain) */
    int ntmpl;
    seg_op tmpl[TMPL_MAX + 1]; /* (+ a spare) */
    uint64_t *arena;
    size_t arena_cap, arena_len;
} seg;

bool pp5_emcf_seg_open(const seg *g) { return g->n || g->clocks; }

bool pp5_emcf_block_capable(const pp5_emc *e)
{
    const pp5_emc_options *o = &e->o;
    return o->sum_table == 0x96 && o->carry_table == 0xE8 && o->enable_table == 0xE8 && o->mwrt_gated_by_e &&
           !o->loads_gated_by_e && o->s_source == PP5_S_PREV_READ && e->wpc == 4;
}

void pp5_emcf_seg_free(seg *g)
{
    if (g) free(g->arena);
    free(g);
}

static void seg_reset(seg *g);
struct seg *pp5_emcf_seg_new(const pp5_emc *e)
{
    seg *g = malloc(sizeof(seg));
    if (g) {
        for (int a = 0; a < NPLANES; a++) g->pl0[a] = plane(e, a, 0);
        g->op = g->opbuf[0];
        g->keep_ops = false;
        g->arena = NULL;
        g->arena_cap = 0;
        memset(g->xslot, -1, sizeof g->xslot);
        memset(g->yslot, -1, sizeof g->yslot);
        g->nx = g->ny = 0;
        g->slots_made = false;
        memset(g->tmap, 0, sizeof g->tmap);
        g->ntmpl = 0;
        seg_reset(g);
    }
    return g;
}

static void seg_reset(seg *g)
{
    if (g->keep_ops) { /* (the log's hole has the ops: the next segment takes the other buffer) */
        g->op = g->opbuf[g->op == g->opbuf[0]];
        g->keep_ops = false;
    }
    g->n = 0;
    g->clocks = 0;
    g->has_t = false;
    g->has_lde = false;
    g->nldc = 0;
    g->ldc_rings = 0;
    g->last_ldc = g->last_over = -1;
    for (int r = 0; r < QEE_SETS; r++) {
        g->set[r].kmax = -1;
        g->set[r].kmin = 128;
    }
    g->min_uid = UINT64_MAX;
    g->last_t_ring = -2;
    g->last_t_k = -1;
}

/* Room in the log for the segment's Carry-loading ops, made before the chip
 * pass (nothing has changed yet if there is none). */
static bool seg_log_room(pp5_emc *e, const seg *g)
{
    int count = g->nldc;
    if (!count) return true;
    if (e->log_len && !(e->pend[0] | e->pend[1] | e->pend[2] | e->pend[3])) log_clear(e);
    if (e->log_len + count > LOG_LIMIT) pp5_emcf_flush_all(e);
    if (e->log_len + count > e->log_cap) {
        int nc = e->log_cap ? e->log_cap : 256;
        while (nc < e->log_len + count) nc *= 2;
        defer_op *nl = realloc(e->log, (size_t)nc * sizeof *nl);
        if (!nl) return false;
        e->log = nl;
        e->log_cap = nc;
    }
    if (e->arch_len + QEE_SETS > e->arch_cap) {
        int nc = e->arch_cap ? e->arch_cap : 64;
        while (nc < e->arch_len + QEE_SETS) nc *= 2;
        qee_set *na = realloc(e->arch, (size_t)nc * sizeof *na);
        if (!na) return false;
        e->arch = na;
        e->arch_cap = nc;
    }
    return true;
}

/* Write the log's reserved entries (the hole seg_defer left) from the
 * segment's ops: what flush_chip reads of each word. */
void pp5_emcf_log_fill(pp5_emc *e)
{
    int j = e->hole_lo;
    for (int i = e->hole_first; i < e->hole_n; i++) {
        const seg_op *o = &e->hole_op[i];
        if (!o->ldc) continue;
        defer_op *d = &e->log[j++];
        d->u.ss = OPM(o, OPM_SS);
        d->u.ts = OPM(o, OPM_TS);
        d->u.es = OPM(o, OPM_ES);
        d->u.ms = OPM(o, OPM_MS);
        d->u.cs = OPM(o, OPM_CS);
        d->u.acm = OPM(o, OPM_ACM);
        d->u.bcm = OPM(o, OPM_BCM);
        d->u.ccm = OPM(o, OPM_CCM);
        d->u.addr = o->m_plane;
        d->u.need_t = o->need_t;
        d->u.need_s = o->need_s;
        d->s_addr = o->s_addr;
        d->set_ix = o->need_t && o->set_ring >= 0 ? e->hole_arch[o->set_ring] : -1;
        d->k = d->set_ix >= 0 ? o->k : 0;
    }
    e->hole_lo = e->hole_hi = 0;
}

/* The dark chips' share of the segment, after the chip pass: their Carry
 * updates, logged (A-11). Dark are the chips dark from the start (dark) and
 * those whose E became all 0 at an Enable load of the segment (from op
 * g->stop[c] on: the load only darkens, enable_stays_0). A chip starting at op
 * s takes the ops from the last one that overwrites Carry without reading it,
 * if that is at or after s (the z-test's preset: a constant written once),
 * else from s. The entries are made once, for the ops from the earliest start,
 * as a hole in the log (log_fill writes them if a chip's entries are ever
 * applied): the segment's op buffer is kept for it, the next segment decodes
 * into the other one. */
static void seg_defer(pp5_emc *e, seg *g, const uint64_t *dark, bool dark_filled)
{
    int last_over = g->last_over, nldc = g->nldc;
    bool any_dark = (dark[0] | dark[1] | dark[2] | dark[3]) != 0;
    bool any_stop = (g->stopped[0] | g->stopped[1] | g->stopped[2] | g->stopped[3]) != 0;
    if (!nldc || !(any_dark || any_stop)) return;
    int over_start = last_over < 0 ? g->n : g->op[last_over].fill ? last_over + 1 : last_over;
#define SEG_EFF(s) (last_over >= (s) ? over_start : (s))
    uint64_t fill_v = last_over >= 0 && g->op[last_over].fill && g->op[last_over].fill_v ? ~0ull : 0;
    bool fill = last_over >= 0 && g->op[last_over].fill;
    /* what the segment overwrites: nothing pending there (the chips that went
     * dark at an Enable load ran: nothing was pending) */
    if (any_dark && last_over >= 0) {
        for (int wd = 0; wd < 4; wd++) e->pend[wd] &= ~dark[wd];
        if (fill && !dark_filled) /* (dark_filled: the whole plane was, before the chip pass) */
            for (int wd = 0; wd < 4; wd++)
                for (uint64_t m = dark[wd]; m; m &= m - 1) {
                    uint64_t *cy = plane(e, PL_CARRY, wd * 64 + __builtin_ctzll(m));
                    cy[0] = cy[1] = cy[2] = cy[3] = fill_v;
                }
    }
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t m = g->stopped[wd]; m; m &= m - 1) {
            int c = wd * 64 + __builtin_ctzll(m);
            if (last_over >= g->stop[c]) {
                drop_pending(e, c);
                if (fill) {
                    uint64_t *cy = plane(e, PL_CARRY, c);
                    cy[0] = cy[1] = cy[2] = cy[3] = fill_v;
                }
            }
        }
    /* no chip left with pending entries: the log (and an earlier hole) is dropped;
     * else an earlier hole is written before its op buffer is reused */
    if (e->log_len && !(e->pend[0] | e->pend[1] | e->pend[2] | e->pend[3])) log_clear(e);
    if (e->hole_hi > e->hole_lo) pp5_emcf_log_fill(e);
    int emin = any_dark ? SEG_EFF(0) : g->n;
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t m = g->stopped[wd]; m; m &= m - 1) {
            int st = g->stop[wd * 64 + __builtin_ctzll(m)], ef = SEG_EFF(st);
            if (ef < emin) emin = ef;
        }
    /* entries (room made by seg_log_room): the Carry-loading ops from emin, the
     * first logged op at or after op i is entry lo + ldc_rank[i] - ldc_rank[emin]
     * (none when ldc_rank[i] = nldc); T of the sets as they are now (bits below k
     * were final when a word read bit k) */
    int lo = e->log_len, base = emin < g->n ? g->op[emin].ldc_rank : nldc;
#define SEG_ENTRY(i) ((i) < g->n && g->op[i].ldc_rank < nldc ? lo + g->op[i].ldc_rank - base : -1)
    if (nldc > base) {
        e->log_len += nldc - base;
        e->hole_lo = lo;
        e->hole_hi = e->log_len;
        e->hole_first = emin;
        e->hole_n = g->n;
        e->hole_op = g->op;
        for (unsigned m = g->ldc_rings; m; m &= m - 1) {
            int r = __builtin_ctz(m);
            e->arch[e->arch_len] = e->set[r];
            e->hole_arch[r] = e->arch_len++;
        }
        g->keep_ops = true; /* (seg_flush moves to the other buffer at its end) */
    }
    /* chips dark from the start (s = 0) */
    if (any_dark) {
        int ef = SEG_EFF(0), en = SEG_ENTRY(ef);
        if (en >= 0)
            for (int wd = 0; wd < 4; wd++) {
                /* the fresh ones become the group (starting at en); chips of
                 * the old group still pending take its start as their own */
                for (uint64_t old = e->grp[wd] & e->pend[wd]; old; old &= old - 1)
                    e->pend_from[wd * 64 + __builtin_ctzll(old)] = e->grp_from;
                e->grp[wd] = dark[wd] & ~e->pend[wd];
                e->pend[wd] |= dark[wd];
            }
        if (en >= 0) e->grp_from = en;
    }
    /* chips that went dark at an Enable load */
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t m = g->stopped[wd]; m; m &= m - 1) {
            int c = wd * 64 + __builtin_ctzll(m), ef = SEG_EFF(g->stop[c]), en = SEG_ENTRY(ef);
            if (en < 0) continue;
            if (!chip_pending(e, c)) pend_set(e, c, en);
            e->pend[wd] |= 1ull << (c & 63);
        }
#undef SEG_EFF
#undef SEG_ENTRY
}

/* Range of the x part D·x² + A·x (is_y: F·y² + B·y) over n values from origin.
 * narrow: −2^38 ≤ D < 2^38 and −2^50 ≤ A < 2^50 (F, B), and origin + n ≤ 2^12 (A-14: 11-bit
 * origins, n ≤ 64): then every term and sum fits in int64 (|q·x²|, |l·x| <
 * 2^62) and 64-bit multiplies do (the usual case: the z-test's and colours'
 * sets are narrow); else the 128-bit ones */
static void part_range(const i128 *co, int is_y, bool narrow, int origin, int n, i128 *mn, i128 *mx)
{
    i128 q = co[is_y ? 5 : 3], l = co[is_y ? 1 : 0], o = origin;
    if (narrow) {
        int64_t q6 = (int64_t)q, l6 = (int64_t)l, o6 = origin;
        int64_t lo, hi;
        if (q6 == 0) {
            int64_t u = l6 * o6, v = l6 * (o6 + n - 1);
            lo = u < v ? u : v;
            hi = u < v ? v : u;
        } else {
            lo = hi = q6 * o6 * o6 + l6 * o6;
            for (int i = 1; i < n; i++) {
                int64_t x = o6 + i, v = q6 * x * x + l6 * x;
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
        }
        *mn = lo;
        *mx = hi;
        return;
    }
    if (q == 0) {
        i128 u = l * o, v = l * (o + n - 1);
        *mn = u < v ? u : v;
        *mx = u < v ? v : u;
        return;
    }
    i128 lo = q * o * o + l * o, hi = lo;
    for (int i = 1; i < n; i++) {
        i128 v = q * (o + i) * (o + i) + l * (o + i);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    *mn = lo;
    *mx = hi;
}

/* Bits klo .. klo+nb-1 (≤ 63) of 16 values as 16-bit masks (bit i: value i). */
static void masks16(const uint64_t *val, int klo, int nb, uint64_t *out)
{
    for (int b = 0; b < nb; b += 8) {
        int n = nb - b < 8 ? nb - b : 8;
#if defined(__SSE2__)
        /* byte i = bits klo+b .. of val[i], gathered in two words (bytes stored
         * one by one and read back as a vector would stall store forwarding) */
        uint64_t w0 = 0, w1 = 0;
        for (int i = 0; i < 8; i++) {
            w0 |= (val[i] >> (klo + b) & 0xff) << (8 * i);
            w1 |= (val[i + 8] >> (klo + b) & 0xff) << (8 * i);
        }
        /* the top bit of each byte by movemask, doubling brings the next one up */
        __m128i v = _mm_set_epi64x((long long)w1, (long long)w0);
        for (int j = 7; j >= 0; j--) {
            if (j < n) out[b + j] = (uint64_t)_mm_movemask_epi8(v);
            v = _mm_add_epi8(v, v);
        }
#else
        uint8_t by[16];
        for (int i = 0; i < 16; i++) by[i] = (uint8_t)(val[i] >> (klo + b));
        for (int j = 0; j < n; j++) {
            unsigned m = 0;
            for (int i = 0; i < 16; i++) m |= (unsigned)(by[i] >> j & 1) << i;
            out[b + j] = m;
        }
#endif
    }
}

/* The running chips' columns and rows as slots, once a segment: the lead
 * chips present as bit masks first (no branch per chip on "a new column?",
 * which mispredicted), then a slot per lead in lead order. (xslot/yslot are
 * read only at the leads of running chips, all set here: no clearing.) */
static void seg_slots(const pp5_emc *e, seg *g, const uint64_t *run)
{
    uint64_t xm[4] = {0}, ym[4] = {0};
    if (e->nchips <= 64) { /* (leads < 64: the masks in registers) */
        uint64_t x = 0, y = 0;
        for (uint64_t m = run[0]; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            x |= 1ull << e->xlead[c];
            y |= 1ull << e->ylead[c];
        }
        xm[0] = x;
        ym[0] = y;
    } else {
        for (int wd = 0; wd < 4; wd++)
            for (uint64_t m = run[wd]; m; m &= m - 1) {
                int c = wd * 64 + __builtin_ctzll(m), xl = e->xlead[c], yl = e->ylead[c];
                xm[xl >> 6] |= 1ull << (xl & 63);
                ym[yl >> 6] |= 1ull << (yl & 63);
            }
    }
    int nx = 0, ny = 0;
    for (int wd = 0; wd < 4; wd++) {
        for (uint64_t m = xm[wd]; m; m &= m - 1) {
            int l = wd * 64 + __builtin_ctzll(m);
            g->xslot[l] = (int16_t)nx;
            g->xl[nx++] = (int16_t)l;
        }
        for (uint64_t m = ym[wd]; m; m &= m - 1) {
            int l = wd * 64 + __builtin_ctzll(m);
            g->yslot[l] = (int16_t)ny;
            g->yl[ny++] = (int16_t)l;
        }
    }
    g->nx = nx;
    g->ny = ny;
    g->slots_made = true;
}

/* The arena data of set ring r for the running chips (seg_set). */
static bool seg_prepare_set(pp5_emc *e, seg *g, int r, const uint64_t *run)
{
    seg_set *ss = &g->set[r];
    if (!g->slots_made) seg_slots(e, g, run);
    const int16_t *xl = g->xl, *yl = g->yl;
    ss->nx = g->nx;
    ss->ny = g->ny;
    size_t xw = (size_t)ss->nb + SEG_SLOT_EXTRA, yw = xw;
    size_t need = g->arena_len + (size_t)ss->nx * xw + (size_t)ss->ny * yw;
    if (need > g->arena_cap) {
        size_t nc = g->arena_cap ? g->arena_cap : 4096;
        while (nc < need) nc *= 2;
        uint64_t *na = realloc(g->arena, nc * sizeof *na);
        if (!na) return false;
        g->arena = na;
        g->arena_cap = nc;
    }
    ss->xbase = g->arena_len;
    ss->ybase = g->arena_len + (size_t)ss->nx * xw;
    g->arena_len = need;
    memset(ss->made, 0, sizeof ss->made);
    /* (origins < 2^11 and 16 values: part_range's 64-bit path when the coefficients are narrow) */
    bool narrow[2];
    for (int a = 0; a < 2; a++) { /* (the narrow test in int64: an adder set's co[] are sign-extended from bit kmax ≤ 63) */
        int64_t q = (int64_t)ss->co[a ? 5 : 3], l = (int64_t)ss->co[a ? 1 : 0];
        narrow[a] = q >= -((int64_t)1 << 38) && q < (int64_t)1 << 38 && l >= -((int64_t)1 << 50) && l < (int64_t)1 << 50;
    }
    ss->lin = narrow[0] && narrow[1] && ss->co[3] == 0 && ss->co[5] == 0;
    if (ss->lin) {
        /* Q over a chip: C + A·(X0 + {0..15}) + B·(Y0 + {0..15}), its min
         * with min(0, 15A) + min(0, 15B), its width |15A| + |15B| < 2^55 */
        int64_t la = (int64_t)ss->co[0] * 15, lb = (int64_t)ss->co[1] * 15;
        ss->lin_lx = (uint64_t)(int64_t)ss->co[0];
        ss->lin_ly = (uint64_t)(int64_t)ss->co[1];
        ss->lin_c = (uint64_t)(int64_t)ss->co[2] + (uint64_t)(la < 0 ? la : 0) + (uint64_t)(lb < 0 ? lb : 0);
        ss->lin_w = (uint64_t)(la < 0 ? -la : la) + (uint64_t)(lb < 0 ? -lb : lb);
        return true;
    }
    for (int a = 0; a < 2; a++) {
        int n = a ? ss->ny : ss->nx;
        size_t stride = a ? yw : xw;
        if (narrow[a] && ss->co[a ? 5 : 3] == 0) {
            /* linear and narrow (the usual case: the z and colour planes): the
             * extremes l·o and l·(o + 15), in int64 (part_range's 64-bit path
             * written out for the line loop) */
            int64_t l6 = (int64_t)ss->co[a ? 1 : 0], span = l6 * 15;
            uint32_t omask = a ? e->y0_mask : e->x0_mask;
            int osh = a ? 11 : 0;
            const int16_t *ld = a ? yl : xl;
            uint64_t *lo = g->arena + (a ? ss->ybase : ss->xbase) + ss->nb + SEG_LOWS;
            for (int i = 0; i < n; i++, lo += stride) {
                int64_t u = l6 * (int64_t)(e->config[ld[i]] >> osh & omask), v = u + span;
                i128 mn = u < v ? u : v, mx = u < v ? v : u;
                memcpy(lo, &mn, sizeof mn);
                memcpy(lo + 2, &mx, sizeof mx);
            }
            continue;
        }
        for (int i = 0; i < n; i++) {
            int lead = a ? yl[i] : xl[i], origin = a ? chip_y0(e, lead) : chip_x0(e, lead);
            uint64_t *d = g->arena + (a ? ss->ybase + (size_t)i * yw : ss->xbase + (size_t)i * xw);
            uint64_t *lo = d + ss->nb;
            i128 mn, mx;
            part_range(ss->co, a, narrow[a], origin, 16, &mn, &mx);
            memcpy(lo + SEG_LOWS, &mn, sizeof mn);
            memcpy(lo + SEG_LOWS + 2, &mx, sizeof mx);
        }
    }
    return true;
}

/* A line's masks and low words (d: its arena data, a: y line), for a chip
 * whose adder starts: many chips of a segment need none (constant T). */
static __attribute__((noinline)) void seg_line(const qee_set *s, const seg_set *ss, int a, int origin, uint64_t *d)
{
    uint64_t *lo = d + ss->nb;
    /* the part's 16 values mod 2^64 (bits ≤ 63 of the sum need no more):
     * forward differences v(x+1) - v(x) = q(2x+1) + l, step 2q */
    uint64_t q = (uint64_t)s->coef[a ? 5 : 3], l1 = (uint64_t)s->coef[a ? 1 : 0];
    uint64_t x = (uint64_t)origin, v = q * x * x + l1 * x + (a ? 0 : (uint64_t)s->coef[2]);
    uint64_t d1 = q * (2 * x + 1) + l1, d2 = 2 * q;
    for (int j = 0; j < 16; j++) {
        lo[j] = v;
        v += d1;
        d1 += d2;
    }
    masks16(lo, ss->klo, ss->nb, d); /* (d[0 .. nb): below lo) */
}

#ifdef EMC_AVX512
/* seg_line with AVX-512 (DQ: 64-bit products) and GFNI: the 16 values in two
 * vectors (stored as vectors: the adder start loads them so, and a vector
 * load of scalar stores would wait for them), their masks eight bits at a
 * time by a shift, a byte truncation and one affine instruction that
 * transposes the two 8×8 bit blocks (byte i: bits of value i → byte j: bit j
 * of the eight values; it reads matrix row 7 − j for result bit j, so the
 * values go in reversed) */
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,gfni"), noinline)) static void
seg_line_gfni(const qee_set *s, const seg_set *ss, int a, int origin, uint64_t *d)
{
    uint64_t *lo = d + ss->nb;
    __m512i q = _mm512_set1_epi64((long long)(uint64_t)s->coef[a ? 5 : 3]);
    __m512i l1 = _mm512_set1_epi64((long long)(uint64_t)s->coef[a ? 1 : 0]);
    __m512i c0 = _mm512_set1_epi64(a ? 0 : (long long)(uint64_t)s->coef[2]);
    __m512i x0 = _mm512_add_epi64(_mm512_set1_epi64(origin), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    __m512i x1 = _mm512_add_epi64(x0, _mm512_set1_epi64(8));
    /* (q·x + l)·x + c mod 2^64, as the forward differences of seg_line (l·x + c
     * for a linear part, the z and colour planes: one product fewer on the
     * chain to the masks) */
    __m512i va, vb;
    if ((uint64_t)s->coef[a ? 5 : 3] == 0) { /* (mod 2^64: the low word is all that counts) */
        va = _mm512_add_epi64(_mm512_mullo_epi64(l1, x0), c0);
        vb = _mm512_add_epi64(_mm512_mullo_epi64(l1, x1), c0);
    } else {
        va = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_add_epi64(_mm512_mullo_epi64(q, x0), l1), x0), c0);
        vb = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_add_epi64(_mm512_mullo_epi64(q, x1), l1), x1), c0);
    }
    _mm512_storeu_si512((void *)lo, va);
    _mm512_storeu_si512((void *)(lo + 8), vb);
    const __m512i rev = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    va = _mm512_permutexvar_epi64(rev, va);
    vb = _mm512_permutexvar_epi64(rev, vb);
    const __m128i unit = _mm_set1_epi64x((long long)0x8040201008040201ull); /* byte i = 1 << i */
    int klo = ss->klo, nb = ss->nb;
    for (int bb = 0; bb < nb; bb += 8) {
        int n = nb - bb < 8 ? nb - bb : 8;
        __m128i sh = _mm_cvtsi32_si128(klo + bb);
        __m128i v = _mm_unpacklo_epi64(_mm512_cvtepi64_epi8(_mm512_srl_epi64(va, sh)),
                                       _mm512_cvtepi64_epi8(_mm512_srl_epi64(vb, sh)));
        __m128i t = _mm_gf2p8affine_epi64_epi8(unit, v, 0); /* qword h, byte j: bit j of values 8h .. 8h+7 */
        __m128i w = _mm_unpacklo_epi8(t, _mm_srli_si128(t, 8)); /* 16-bit lane j: bit j of the 16 values */
        _mm512_mask_storeu_epi64(d + bb, (__mmask8)((1u << n) - 1), _mm512_cvtepu16_epi64(w));
    }
}
#endif

#ifdef EMC_AVX512
/* A fused T run of the chip pass (seg_chip) with AVX-512 VL + BW on 256-bit
 * vectors: each of the run's boolean functions one vpternlogq — the
 * z-test's Carry ← maj(T, ~Z, Carry), the write M ← T where E, the adder's
 * sum and carry — and the adder's row bits (R's bit of row ly in lane ly)
 * from a mask register (vpmovm2w) instead of a broadcast, an and and a
 * compare. The run's n bits: bit 0 with T as given, bits 1 .. na-1 from the
 * adder (its carry *ak, masks xk/yk from bit 1 on), bits na .. n-1 the
 * constants of qmin. T, K, the adder's carry and the last M read come back
 * through the pointers (inlined into seg_chips_avx512: registers). */
enum { TL_XOR3 = 0x96, TL_MAJ = 0xE8, TL_SEL = 0xD8 /* a=M b=T c=E: E ? T : M */,
       TL_MAJ_NZ = 0xD4 /* a=K b=T c=Z: maj(T, ~Z, K) */ };
__attribute__((target("avx2,avx512f,avx512vl,avx512bw"))) static inline void
seg_run_avx512(const seg_op *q, size_t off, bool pair, int n, int na, const uint64_t *xk, const uint64_t *yk,
               uint64_t qmin, int k0, const v4u *Ep, v4u *Tp, v4u *Kp, v4u *akp, v4u *Mp)
{
    /* (E by pointer: a 32-byte vector by value from the portable instance of
     * seg_chip, where this call is dead code, breaks -Wpsabi at -O1) */
    __m256i e = (__m256i)*Ep, t = (__m256i)*Tp, kk = (__m256i)*Kp, ak = (__m256i)*akp, m = _mm256_setzero_si256();
#define SEG_RUN_BIT512(PAIR)                                                                                          \
    do {                                                                                                              \
        uint64_t *mp = q[PAIR].m0 + off;                                                                              \
        if (PAIR) kk = _mm256_ternarylogic_epi64(kk, t, _mm256_loadu_si256((const __m256i *)(q->m0 + off)), TL_MAJ_NZ); \
        m = _mm256_loadu_si256((const __m256i *)mp);                                                                  \
        _mm256_storeu_si256((__m256i *)mp, _mm256_ternarylogic_epi64(m, t, e, TL_SEL));                               \
        q += 1 + PAIR;                                                                                                \
    } while (0)
#define SEG_RUN512(PAIR)                                                                                              \
    do {                                                                                                              \
        SEG_RUN_BIT512(PAIR);                                                                                         \
        for (int j = 1; j < na; j++) {                                                                                \
            __m256i u = _mm256_set1_epi16((short)(uint16_t)*xk++);                                                    \
            __m256i v = _mm256_movm_epi16((__mmask16)*yk++);                                                          \
            t = _mm256_ternarylogic_epi64(u, v, ak, TL_XOR3);                                                         \
            ak = _mm256_ternarylogic_epi64(ak, u, v, TL_MAJ);                                                         \
            SEG_RUN_BIT512(PAIR);                                                                                     \
        }                                                                                                             \
        for (int j = na; j < n; j++) {                                                                                \
            t = _mm256_set1_epi64x((long long)((uint64_t)0 - (qmin >> (k0 + j) & 1)));                                \
            SEG_RUN_BIT512(PAIR);                                                                                     \
        }                                                                                                             \
    } while (0)
    if (pair) SEG_RUN512(1);
    else SEG_RUN512(0);
#undef SEG_RUN512
#undef SEG_RUN_BIT512
    *Tp = (v4u)t;
    *Kp = (v4u)kk;
    *akp = (v4u)ak;
    *Mp = (v4u)m;
}
#endif

/* Chip c runs the segment's ops. T of a set marked adder: bits from the
 * chip's constant bit up are constants; below it a bit-serial adder of
 * P(lx) + R(ly) (as compute_bit's) starts at the first bit read and steps
 * with the reads, its carry in registers. Other sets: tree_bit. */
/* One bit of the chip's bit-serial adder P(lx) + R(ly): xw, yw the column and
 * row words of the bit (bit lx of xw, bit ly of yw); *t gets the sum bit at
 * every pixel, *ak the carry into the next bit. Pixel i = 16·ly + lx: sixteen
 * 16-bit lanes, one a row; P's bit of column lx is bit lx of every lane, R's
 * bit of row ly fills lane ly. */
static inline __attribute__((always_inline)) void adder_bit(uint64_t xw, uint64_t yw, v4u *ak, v4u *t)
{
    const v16u16 row_bit = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
    uint16_t xm = (uint16_t)xw, ym = (uint16_t)yw;
    v16u16 yv = {ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym};
    v16u16 xv = {xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm};
    v4u u = (v4u)xv, v = (v4u)((yv & row_bit) == row_bit);
    v4u x = u ^ v;
    *t = x ^ *ak;
    *ak = (u & v) | (*ak & x);
}

/* The chip's bit-serial adder in a segment (seg_chip): the set it is for
 * (ring), Q's constant bits from kc up (qmin), the next bit it can step to
 * and the last it gave (AT), its carry (AK), the chip's column and row data of
 * the set (xd, yd: bit klo first). */
typedef struct seg_adder {
    int ring, kc, next_k, last_k, klo;
    i128 qmin;
    v4u AK, AT;
    uint64_t *xd, *yd;
    size_t xslot, yslot; /* the chip's column and row slots (the same for every set) */
} seg_adder;

/* The adder on set ring for chip c: its data, and kc, qmin (Q over the chip in
 * one 2^kc block: bits ≥ kc are constants). */
static inline __attribute__((always_inline)) void seg_adder_on(pp5_emc *e, seg *g, int c, seg_adder *a, int ring)
{
    const seg_set *ss = &g->set[ring];
    a->ring = ring;
    a->klo = ss->klo;
    a->xd = g->arena + ss->xbase + a->xslot * ((size_t)ss->nb + SEG_SLOT_EXTRA);
    a->yd = g->arena + ss->ybase + a->yslot * ((size_t)ss->nb + SEG_SLOT_EXTRA);
    if (ss->lin) {
        /* (mod 2^64: k ≤ kmax ≤ 63 is all that is read. If lo + w carries out
         * of bit 63, Q's range spans bit 64, true kc ≥ 65, and here lo has bit
         * 63 set and lo + w (w < 2^63) not: kc = 64; both leave every bit read
         * to the adder) */
        uint64_t lo = ss->lin_lx * (uint64_t)chip_x0(e, c) + ss->lin_ly * (uint64_t)chip_y0(e, c) + ss->lin_c,
                 d = lo ^ (lo + ss->lin_w);
        a->kc = d ? 64 - __builtin_clzll(d) : 0;
        a->qmin = (i128)(int64_t)lo;
    } else {
        const uint64_t *xd = a->xd, *yd = a->yd;
        i128 pmn, pmx, rmn, rmx;
        memcpy(&pmn, xd + ss->nb + SEG_LOWS, sizeof pmn);
        memcpy(&pmx, xd + ss->nb + SEG_LOWS + 2, sizeof pmx);
        memcpy(&rmn, yd + ss->nb + SEG_LOWS, sizeof rmn);
        memcpy(&rmx, yd + ss->nb + SEG_LOWS + 2, sizeof rmx);
        i128 lo = pmn + rmn + ss->co[2], hi = pmx + rmx + ss->co[2];
        u128 d = (u128)(lo ^ hi);
        uint64_t dh = (uint64_t)(d >> 64), dl = (uint64_t)d;
        a->kc = dh ? 128 - __builtin_clzll(dh) : dl ? 64 - __builtin_clzll(dl) : 0;
        a->qmin = lo;
    }
    a->next_k = a->last_k = -1;
}

/* Positions the adder (below kc) to step to bit k: the chip's column and row
 * lines made if an earlier chip did not, the carry into bit k computed
 * directly (k ≥ 4) or the adder started from bit 0. */
static inline __attribute__((always_inline)) void seg_adder_start(pp5_emc *e, seg *g, int c, seg_adder *a, int k)
{
    const int ring = a->ring;
    const seg_set *ss = &g->set[ring];
    for (int s = 0; s < 2; s++) {
        uint64_t *ld = s ? a->yd : a->xd;
        size_t sl = s ? a->yslot : a->xslot;
        uint64_t *made = &g->set[ring].made[s][sl >> 6];
        if (*made >> (sl & 63) & 1) continue; /* (made for an earlier chip) */
        int origin = s ? chip_y0(e, c) : chip_x0(e, c);
#ifdef EMC_AVX512
        if (e->avx512 == 2) seg_line_gfni(&e->set[ring], ss, s, origin, ld);
        else
#endif
            seg_line(&e->set[ring], ss, s, origin, ld);
        *made |= 1ull << (sl & 63);
    }
    /* start: the carry into bit k directly (klo = k then), or from bit 0 */
    if (k >= 4) {
        const uint64_t *pl = a->xd + ss->nb, *rl = a->yd + ss->nb;
        uint64_t cy[4];
#ifdef EMC_AVX512
        if (e->avx512) {
            pp5_emcf_carry16_avx512(pl, rl, k, cy);
        } else
#endif
        {
            uint64_t pv[16], rv[16], low = (1ull << k) - 1;
            for (int j = 0; j < 16; j++) {
                pv[j] = pl[j] & low;
                rv[j] = rl[j] & low;
            }
            pp5_emcf_carry_into(pv, rv, 16, 16, k, cy, 4);
        }
        LD4(a->AK, cy);
        a->next_k = k;
    } else {
        a->AK = SPLAT4(0);
        a->next_k = 0;
    }
}

/* T of op o for chip c into *T (o reads T, not as the previous T op's; by
 * pointer: a 32-byte vector return would change the ABI without AVX). */
static inline __attribute__((always_inline)) void seg_chip_t(pp5_emc *e, seg *g, int c, const seg_op *o, seg_adder *a,
                                                              v4u *T)
{
    if (o->set_ring < 0) {
        *T = SPLAT4(0);
        return;
    }
    const int k = o->k;
    const seg_set *ss = &g->set[o->set_ring];
    if (!ss->adder) {
        LD4(*T, tree_bit(e, c, &e->set[o->set_ring], k, !o->lde));
        return;
    }
    if (o->set_ring != a->ring)
        seg_adder_on(e, g, c, a, o->set_ring);
    if (k == a->last_k) {
        *T = a->AT;
    } else if (k >= a->kc) {
        *T = SPLAT4((uint64_t)0 - (uint64_t)((a->qmin >> k) & 1));
    } else {
        if (!(a->next_k >= 0 && a->next_k <= k && k - a->next_k <= 4))
            seg_adder_start(e, g, c, a, k);
        for (; a->next_k <= k; a->next_k++)
            adder_bit(a->xd[a->next_k - a->klo], a->yd[a->next_k - a->klo], &a->AK, &a->AT);
        a->last_k = k;
        *T = a->AT;
    }
}

/* A fused run (seg_fuse) at op o of chip c (plane words at off): bits k, k+1,
 * ... of one set, T of each bit the next one of the adder (positioned by the
 * bit before) while below kc, then constants; the ops' own kernels. The op's
 * fields in locals: the plane stores could alias its bytes. Returns the ops it
 * took. */
static inline __attribute__((always_inline)) int seg_chip_run(const seg_op *o, size_t off, seg_adder *a, int isa,
                                                               v4u *Ep, v4u *Tp, v4u *Kp, v4u *Mp)
{
    int k0 = o->k, n = o->run;
    bool pair = o->shape == SH_CARRY_T_NM;
    int st = pair ? 2 : 1;
    int na = a->kc - k0; /* bits j < na from the adder (j = 0: T as set above) */
    na = na < 1 ? 1 : na > n ? n : na;
#ifdef EMC_AVX512
    if (isa == 2) { /* (seg_chips_avx512) */
        seg_run_avx512(o, off, pair, n, na, a->xd + (k0 + 1 - a->klo), a->yd + (k0 + 1 - a->klo), (uint64_t)a->qmin,
                       k0, Ep, Tp, Kp, &a->AK, Mp);
        if (na > 1) {
            a->AT = *Tp;
            a->last_k = k0 + na - 1;
            a->next_k = a->last_k + 1;
        }
        return st * n;
    }
#else
    (void)isa;
#endif
    v4u E = *Ep, T = *Tp, K = *Kp, M = *Mp;
    const seg_op *q = o;
#define SEG_RUN_BIT()                                                                                                 \
    do {                                                                                                              \
        uint64_t *tp = q[pair].m0 + off;                                                                              \
        if (pair) { /* the z-test's pair: Carry ← maj(T, ~M), then M' ← T where E */                                  \
            v4u Z;                                                                                                    \
            LD4(Z, q->m0 + off);                                                                                      \
            v4u B = ~Z;                                                                                               \
            K = (T & B) | (K & (T | B));                                                                              \
        }                                                                                                             \
        LD4(M, tp);                                                                                                   \
        v4u nm = M ^ ((M ^ T) & E);                                                                                   \
        ST4(tp, nm);                                                                                                  \
        q += st;                                                                                                      \
    } while (0)
    SEG_RUN_BIT();
    if (na > 1) {
        const uint64_t *xk = a->xd + (k0 + 1 - a->klo), *yk = a->yd + (k0 + 1 - a->klo);
        for (int j = 1; j < na; j++) {
            adder_bit(*xk++, *yk++, &a->AK, &T);
            SEG_RUN_BIT();
        }
        a->AT = T;
        a->last_k = k0 + na - 1;
        a->next_k = a->last_k + 1;
    }
    for (int j = na; j < n; j++) {
        T = SPLAT4((uint64_t)0 - ((uint64_t)a->qmin >> (k0 + j) & 1));
        SEG_RUN_BIT();
    }
#undef SEG_RUN_BIT
    *Tp = T;
    *Kp = K;
    *Mp = M;
    return st * n;
}

static inline __attribute__((always_inline)) int seg_chip(pp5_emc *e, seg *g, int c, bool snap_at_end, bool can_stop,
                                                          int isa)
{
    size_t off = (size_t)c * 4;
    const uint64_t *zero = plane(e, PL_ZERO, c);
    uint64_t *cyp = plane(e, PL_CARRY, c);
    v4u E, K, M, Mprev = SPLAT4(0), S, T = SPLAT4(0);
    LD4(E, plane(e, PL_E, c));
    LD4(K, cyp);
    seg_adder a;
    a.ring = -1;
    a.kc = 0;
    a.next_k = a.last_k = -1;
    a.qmin = 0;
    a.AK = a.AT = SPLAT4(0);
    a.xd = a.yd = NULL;
    a.klo = 0;
    a.xslot = (size_t)g->xslot[e->xlead[c]];
    a.yslot = (size_t)g->yslot[e->ylead[c]];
    for (int i = 0; i < g->n; i++) {
        const seg_op *o = &g->op[i];
        if (o->fill) {
            K = SPLAT4(o->fill_v ? ~0ull : 0);
            continue;
        }
        /* T not read (its mask is all ones), or as the previous T op's: kept */
        if (o->need_t && !o->t_same)
            seg_chip_t(e, g, c, o, &a, &T);
        if (o->run && o->shape == SH_WRITE_S) {
            /* a fused copy run (seg_fuse): M ← S where E, S each op's plane
             * (the plane the clock before it read) */
            int n = o->run;
            for (int j = 0; j < n; j++) {
                uint64_t *tp = o[j].m0 + off;
                LD4(S, o[j].s0 + off);
                LD4(M, tp);
                v4u nm = M ^ ((M ^ S) & E);
                ST4(tp, nm);
            }
            Mprev = M; /* A-10: S of the next clock is M before the last write */
            i += n - 1;
            continue;
        }
        if (o->run) { /* a fused run (seg_fuse) */
            i += seg_chip_run(o, off, &a, isa, &E, &T, &K, &M) - 1;
            Mprev = M; /* A-10 */
            continue;
        }
        if (o->shape == SH_LDE_E_NC) {
            /* a=0 b=e c=~cy lde (seg_fuse): E ← maj(0, E, ~Carry) = E ∧ ~Carry
             * (A-8 a bus without a source is all ones, AComp makes it 0; A-9
             * the majority; A-11 LdE not gated); no M, S or T read */
            E &= ~K;
            if (can_stop && !(E[0] | E[1] | E[2] | (E[3] & e->lastmask))) { /* (as the generic Enable load) */
                ST4(plane(e, PL_E, c), E);
                ST4(cyp, K);
                return i + 1;
            }
            continue;
        }
        uint64_t *mp = o->m0 + off;
        LD4(M, mp);
        switch (o->shape) {
        case SH_WRITE_T: { /* a=t b=0 c=0 mwrt: M ← T where E (A-9, A-11) */
            v4u nm = M ^ ((M ^ T) & E);
            ST4(mp, nm);
            Mprev = M; /* A-10: S of the next clock is M before the write */
            continue;
        }
        case SH_CARRY_T_NM: { /* a=t b=~m c=cy ldc: Carry ← maj(T, ~M, Carry) */
            v4u B = ~M;
            K = (T & B) | (K & (T | B));
            continue;
        }
        default: break;
        }
        if (!o->need_s) S = SPLAT4(0);
        else if (o->s_mode == S_PREV_M) S = Mprev;
        else if (o->s_mode == S_PLANE) LD4(S, o->s0 + off);
        else LD4(S, e->s_gen[c] == e->gen ? e->s_snap + off : e->s_addr >= 0 ? plane(e, e->s_addr, c) : zero);
        if (o->shape == SH_WRITE_S) { /* a=s b=0 c=0 mwrt: M ← S where E */
            v4u nm = M ^ ((M ^ S) & E);
            ST4(mp, nm);
            Mprev = M;
            continue;
        }
        v4u A = ((S | SPLAT4(OPM(o, OPM_SS))) & (T | SPLAT4(OPM(o, OPM_TS)))) ^ SPLAT4(OPM(o, OPM_ACM)); /* A-8 */
        v4u B = ((E | SPLAT4(OPM(o, OPM_ES))) & (M | SPLAT4(OPM(o, OPM_MS)))) ^ SPLAT4(OPM(o, OPM_BCM));
        v4u C = (K | SPLAT4(OPM(o, OPM_CS))) ^ SPLAT4(OPM(o, OPM_CCM));
        if (o->write) {
            v4u nm = M ^ ((M ^ (A ^ B ^ C)) & E); /* A-9 sum, A-11 gated by E */
            ST4(mp, nm);
            Mprev = M; /* A-10: S of the next clock is M before the write */
        }
        v4u maj = (A & B) | (C & (A | B)); /* A-9 */
        if (o->ldc) K = maj; /* A-11: LdC not gated */
        if (o->lde) {
            E = maj; /* A-11: LdE not gated; E ← E ∧ f (enable_stays_0) */
            if (can_stop && !o->write && !(E[0] | E[1] | E[2] | (E[3] & e->lastmask))) {
                /* dark from here on: only Carry changes (seg_defer logs it; S of the
                 * next clock is then the plane this op read, as the log has it — not
                 * after a write, whose S is M before it) */
                ST4(plane(e, PL_E, c), E);
                ST4(cyp, K);
                return i + 1;
            }
        }
    }
    if (g->has_lde) {
        ST4(plane(e, PL_E, c), E);
        /* (update_lit from the registers: a stopped chip is dark, not lit) */
        g->lit[c >> 6] |= (uint64_t)((E[0] | E[1] | E[2] | (E[3] & e->lastmask)) != 0) << (c & 63);
    }
    ST4(cyp, K);
    if (snap_at_end) ST4(e->s_snap + off, Mprev);
    return 0;
}

static inline __attribute__((always_inline)) void seg_chips_body(pp5_emc *e, seg *g, const uint64_t *run,
                                                                  bool snap_at_end, bool can_stop, int isa)
{
    for (int wd = 0; wd < 4; wd++) {
        g->stopped[wd] = 0;
        g->lit[wd] = 0;
        for (uint64_t m = run[wd]; m; m &= m - 1) {
            int c = wd * 64 + __builtin_ctzll(m), st = seg_chip(e, g, c, snap_at_end, can_stop, isa);
            if (st) {
                g->stop[c] = (int16_t)st;
                g->stopped[wd] |= 1ull << (c & 63);
            }
        }
    }
}

/* The chip pass compiled three times: portable (the vector extensions on
 * SSE2), AVX2, and AVX-512 VL (the same 256-bit code; GCC joins its
 * and/or/xor chains into vpternlogq: the select M ^ ((M ^ T) & E) and the
 * adder's sum and carry become one or two instructions each). Chosen by
 * what the processor has and PP5_EMC_SIGN_ISA, so that the isa0 and isa1
 * test builds run the portable and AVX2 forms on any machine. */
static __attribute__((noinline)) void seg_chips_portable(pp5_emc *e, seg *g, const uint64_t *run, bool snap_at_end,
                                                         bool can_stop)
{
    seg_chips_body(e, g, run, snap_at_end, can_stop, 0);
}

#ifdef EMC_AVX512
__attribute__((target("avx2"), noinline)) static void seg_chips_avx2(pp5_emc *e, seg *g, const uint64_t *run,
                                                                      bool snap_at_end, bool can_stop)
{
    seg_chips_body(e, g, run, snap_at_end, can_stop, 1);
}

__attribute__((target("avx2,avx512f,avx512vl,avx512bw"), noinline)) static void
seg_chips_avx512(pp5_emc *e, seg *g, const uint64_t *run, bool snap_at_end, bool can_stop)
{
    seg_chips_body(e, g, run, snap_at_end, can_stop, 2);
}
#endif

static void seg_chips(pp5_emc *e, seg *g, const uint64_t *run, bool snap_at_end, bool can_stop)
{
#ifdef EMC_AVX512
    if (e->avx512) { /* (F, BW, VL, and PP5_EMC_SIGN_ISA ≥ 2) */
        seg_chips_avx512(e, g, run, snap_at_end, can_stop);
        return;
    }
    if (PP5_EMC_SIGN_ISA >= 1 && __builtin_cpu_supports("avx2")) {
        seg_chips_avx2(e, g, run, snap_at_end, can_stop);
        return;
    }
#endif
    seg_chips_portable(e, g, run, snap_at_end, can_stop);
}

/* Fused runs: the z-test's pairs (a=t b=~m c=cy ldc, then a=t b=0 c=0 mwrt
 * reading the same T) and field loads (a=t b=0 c=0 mwrt) over consecutive
 * bits of one set with the adder, and copies (a=s b=0 c=0 mwrt, S the plane
 * the clock before read: the z-test's copy loop); the chip pass takes each
 * in one loop. */
static void seg_fuse(seg *g)
{
    /* (run is 0 from seg_add) */
    for (int i = 0; i < g->n;) {
        seg_op *o = &g->op[i];
        if (o->lde && !o->write && !o->ldc && !o->need_t && !o->need_s &&
            o->opm == (1u << OPM_SS | 1u << OPM_TS | 1u << OPM_MS | 1u << OPM_ACM | 1u << OPM_CCM)) {
            /* a=0 b=e c=~cy lde: A = 1 complemented, B = E, C = ~Carry (the
             * sources' masks as seg_chip's generic kernel reads them) */
            o->shape = SH_LDE_E_NC;
            i++;
            continue;
        }
        bool head = o->need_t && !o->t_same && o->set_ring >= 0 && g->set[o->set_ring].adder;
        int n = 0;
        if (head && o->shape == SH_CARRY_T_NM) {
            while (i + 2 * n + 1 < g->n && n < 255) {
                const seg_op *a = &g->op[i + 2 * n], *b = a + 1;
                if (!(a->shape == SH_CARRY_T_NM && a->need_t && !a->t_same && a->set_ring == o->set_ring &&
                      a->k == o->k + n && b->shape == SH_WRITE_T && b->t_same))
                    break;
                n++;
            }
            if (n >= 2) o->run = (uint8_t)n;
            i += n >= 2 ? 2 * n : 1;
            continue;
        }
        if (o->shape == SH_WRITE_S && o->s_mode == S_PLANE) { /* (the z-test's copy loop) */
            while (i + n < g->n && n < 255 && g->op[i + n].shape == SH_WRITE_S && g->op[i + n].s_mode == S_PLANE) n++;
            if (n >= 2) o->run = (uint8_t)n;
            i += n >= 2 ? n : 1;
            continue;
        }
        if (head && o->shape == SH_WRITE_T) {
            while (i + n < g->n && n < 255) {
                const seg_op *a = &g->op[i + n];
                if (!(a->shape == SH_WRITE_T && a->need_t && !a->t_same && a->set_ring == o->set_ring &&
                      a->k == o->k + n))
                    break;
                n++;
            }
            if (n >= 2) o->run = (uint8_t)n;
            i += n >= 2 ? n : 1;
            continue;
        }
        i++;
    }
}

/* Execute the decoded segment (the QEE is at its end already). */
void pp5_emcf_seg_flush(pp5_emc *e, seg *g)
{
    if (!g->n) {
        if (g->clocks) {
            e->s_addr = g->prev_plane == PL_ZERO ? -1 : g->prev_plane;
            e->gen += (uint64_t)g->clocks;
        }
        /* (no op: seg_add changes the segment's other fields only after it
         * adds one, and the last flush with ops reset them — seg_reset's
         * stores are not needed; ≈ 10 of these a triangle, and 1 408 a frame
         * for the configuration words) */
        g->clocks = 0;
        return;
    }
    /* a running chip's deferred Carry updates: dropped when the first op that
     * touches Carry or memory overwrites Carry without reading it, applied
     * when it reads Carry or writes memory (as settle_pending), else kept */
    int settle = 0;
    for (int i = 0; i < g->n && !settle; i++)
        settle = g->op[i].ldc && !g->op[i].reads_c ? 1 : g->op[i].reads_c || g->op[i].write ? 2 : 0;
    uint64_t run[4] = {0}, dark[4] = {0};
    for (int wd = 0; wd * 64 < e->nchips; wd++) {
        int nw = e->nchips - wd * 64;
        uint64_t all = nw >= 64 ? ~0ull : (1ull << nw) - 1;
        run[wd] = e->eany[wd];
        if (g->op[0].need_s && g->op[0].s_mode == S_INIT) /* (a chip holding S as a snapshot runs: the log reads planes) */
            for (int i = 0; i < 64 && i < nw; i++)
                if (e->s_gen[wd * 64 + i] == e->gen) run[wd] |= 1ull << i;
        dark[wd] = all & ~run[wd];
        if (settle == 1) e->pend[wd] &= ~run[wd];
        else if (settle == 2)
            for (uint64_t p = run[wd] & e->pend[wd]; p; p &= p - 1) pp5_emcf_flush_chip(e, wd * 64 + __builtin_ctzll(p));
    }
    bool can_stop = true; /* (a chip going dark at an Enable load stops, its Carry logged) */
    if (!seg_log_room(e, g)) { /* out of memory for the log: the dark chips run too, none stops */
        for (int wd = 0; wd < 4; wd++) {
            for (uint64_t p = dark[wd] & e->pend[wd]; p; p &= p - 1) pp5_emcf_flush_chip(e, wd * 64 + __builtin_ctzll(p));
            run[wd] |= dark[wd];
            dark[wd] = 0;
        }
        can_stop = false;
    }
    bool snap_at_end = g->prev_write;
    if (e->groups_dirty) pp5_emcf_regroup(e);
    g->arena_len = 0; /* (kmin, kmax: seg_add) */
    g->slots_made = false;
    for (int r = 0; r < QEE_SETS; r++) {
        seg_set *ss = &g->set[r];
        int km = ss->kmax;
        if (km < 0) continue;
        const qee_set *s = &e->set[r];
        /* the adder's geometry: whole rows in a word, 16×16 (vspread of four rows);
         * the carry into a bit k ≥ 4 comes directly, below it the adder runs from bit 0 */
        ss->adder = e->fast_uv && e->tw == 16 && e->th == 16 && km <= 63 &&
                    (s->coef[4] & (((u128)1 << (km + 1)) - 1)) == 0;
        if (!ss->adder) continue;
        for (int j = 0; j < 6; j++) /* (km ≤ 63: sext of the low word, no 128-bit shifts) */
            ss->co[j] = (int64_t)((uint64_t)s->coef[j] << (63 - km)) >> (63 - km);
        ss->klo = ss->kmin >= 4 ? ss->kmin : 0;
        ss->nb = km - ss->klo + 1;
        if (!seg_prepare_set(e, g, r, run)) ss->adder = false; /* (out of memory: tree_bit) */
    }
    seg_fuse(g);
    /* The dark chips' Carry after a segment whose last Carry overwrite is a
     * constant (the z-test's preset) is that constant (seg_defer). When no op
     * reads Carry before the first overwrite (settle 1: the running chips'
     * pending entries are dropped too), no chip's Carry before the segment
     * is ever read, so the whole plane is filled here, one memset, instead of
     * four stores for each of the ≈ 50 dark chips after the pass (the chips
     * that stop at an Enable load are filled after it, as before). */
    bool dark_filled = false;
    if (settle == 1 && g->last_over >= 0 && g->op[g->last_over].fill &&
        __builtin_popcountll(dark[0]) + __builtin_popcountll(dark[1]) + __builtin_popcountll(dark[2]) +
                __builtin_popcountll(dark[3]) >= 8) {
        memset(plane(e, PL_CARRY, 0), g->op[g->last_over].fill_v ? 0xff : 0, e->pw * sizeof(uint64_t));
        dark_filled = true;
    }
    seg_chips(e, g, run, snap_at_end, can_stop);
    if (g->last_ldc >= 0) e->carry_fill = g->op[g->last_ldc].fill ? 1 + g->op[g->last_ldc].fill_v : 0;
    seg_defer(e, g, dark, dark_filled);
    if (g->has_lde) /* (update_lit for four-word chips: seg_chip's lit bits, a word of chips at a time) */
        for (int wd = 0; wd < 4; wd++) e->eany[wd] = (e->eany[wd] & ~run[wd]) | g->lit[wd];
    e->s_addr = g->prev_plane == PL_ZERO ? -1 : g->prev_plane;
    e->gen += (uint64_t)g->clocks;
    if (snap_at_end)
        for (int wd = 0; wd < 4; wd++)
            for (uint64_t m = run[wd] & ~g->stopped[wd]; m; m &= m - 1) e->s_gen[wd * 64 + __builtin_ctzll(m)] = e->gen;
    seg_reset(g);
}

/* What the decode changes on most clocks — the segment's op count, clocks,
 * the plane the last clock read and whether it wrote, its Carry loads —
 * kept by pp5_emc_run in locals (registers: no store and reload from one
 * clock to the next) and put back into the seg (seg_dec_put) before anything
 * else reads them: seg_flush, the clock-by-clock path, the end of the block. */
typedef struct seg_dec {
    seg_op *op;             /* g->op (the op's byte stores could alias it: not reloaded) */
    int n, clocks, prev_plane, nldc;
    bool prev_write;
} seg_dec;

static inline void seg_dec_put(seg *g, const seg_dec *d)
{
    g->n = d->n;
    g->clocks = d->clocks;
    g->prev_plane = d->prev_plane;
    g->prev_write = d->prev_write;
    g->nldc = d->nldc;
}

static inline void seg_dec_get(const seg *g, seg_dec *d)
{
    d->op = g->op;
    d->n = g->n;
    d->clocks = g->clocks;
    d->prev_plane = g->prev_plane;
    d->prev_write = g->prev_write;
    d->nldc = g->nldc;
}

/* A clock that only reads (S follows it) joins the segment. */
static inline void seg_sense(seg_dec *d, int addr)
{
    d->prev_plane = addr < PP5_EMC_MEM_BITS ? addr : PL_ZERO;
    d->prev_write = false;
    d->clocks++;
}

/* The template key of pins p (TMPL_KEYS): the control bytes acmp .. mwrt
 * are consecutive (pp5.h: the struct has no padding), one compare of 16
 * bytes with 0 gives them as bits. */
_Static_assert(offsetof(pp5_pins, mwrt) == offsetof(pp5_pins, acmp) + 10 &&
                   offsetof(pp5_pins, agts_s) == offsetof(pp5_pins, acmp) + 1 &&
                   offsetof(pp5_pins, cgts_c) == offsetof(pp5_pins, acmp) + 7 &&
                   offsetof(pp5_pins, acmp) + 16 <= sizeof(pp5_pins),
               "pp5_pins: control bytes acmp .. mwrt consecutive");
_Static_assert(offsetof(pp5_pins, dat) + 8 <= sizeof(pp5_pins), "pp5_pins: dat[0..5] read as 8 bytes");
enum { KB_ACMP, KB_AGTS_S, KB_AGTS_T, KB_BCMP, KB_BGTS_E, KB_BGTS_M, KB_CCMP, KB_CGTS_C, KB_LDC, KB_LDE, KB_MWRT,
       KB_VALID };
static inline unsigned pins_key(const pp5_pins *p, bool valid)
{
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)&p->acmp);
    unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0x7ffu;
#else
    const uint8_t *b = &p->acmp;
    unsigned m = 0;
    for (int i = 0; i < 11; i++) m |= (unsigned)(b[i] != 0) << i;
#endif
    return m | (unsigned)valid << KB_VALID;
}

/* The template of key (made once per array): the op's fields that depend
 * only on the control pins and the address's validity. */
static __attribute__((noinline)) const seg_op *seg_tmpl_make(const pp5_emc *e, seg *g, unsigned key)
{
    _Static_assert(offsetof(seg, tmpl) + sizeof(((seg *)0)->tmpl) <= 65535, "tmap holds an offset in 16 bits");
    /* (more than TMPL_MAX keys: the spare slot, remade each time) */
    seg_op *o = &g->tmpl[g->ntmpl < TMPL_MAX ? g->ntmpl : TMPL_MAX];
    memset(o, 0, sizeof *o);
    pp5_pins q;
    memset(&q, 0, sizeof q);
    uint8_t *b = &q.acmp;
    for (int i = 0; i < 11; i++) b[i] = (uint8_t)(key >> i & 1);
    const pp5_pins *p = &q;
    bool valid = key >> KB_VALID & 1, write = p->mwrt && valid;
    bool fill = !write && !p->lde && !p->agts_s && !p->agts_t && !p->bgts_e && !p->bgts_m && !p->cgts_c;
    int idx = (1 ^ (p->acmp & 1)) << 2 | (1 ^ (p->bcmp & 1)) << 1 | (1 ^ (p->ccmp & 1));
    /* (an unselected source is all ones: A-8's wired AND) */
    o->opm = (uint8_t)(!p->agts_s << OPM_SS | !p->agts_t << OPM_TS | !p->bgts_e << OPM_ES | !p->bgts_m << OPM_MS |
                       !p->cgts_c << OPM_CS | !!p->acmp << OPM_ACM | !!p->bcmp << OPM_BCM | !!p->ccmp << OPM_CCM);
    o->write = write;
    o->ldc = p->ldc;
    o->lde = p->lde;
    o->need_t = p->agts_t;
    o->need_s = p->agts_s;
    o->reads_c = p->cgts_c;
    /* no operand depends on the pixel: Carry becomes a constant (as alu's fill) */
    o->fill = fill;
    o->fill_v = (uint8_t)(e->o.carry_table >> idx & 1);
    /* operand buses (A-8) of the library's words: b=0 is BCmp with no source,
     * c=0 CCmp with no source, b=~m M with BCmp, c=cy Carry without CCmp */
    bool b0 = !p->bgts_e && !p->bgts_m && p->bcmp, c0 = !p->cgts_c && p->ccmp;
    bool at = p->agts_t && !p->agts_s && !p->acmp, as = p->agts_s && !p->agts_t && !p->acmp;
    o->shape = SH_GENERIC;
    if (p->lde) { /* (Enable loads: the generic kernel) */
    } else if (write && !p->ldc && b0 && c0 && at) o->shape = SH_WRITE_T;
    else if (write && !p->ldc && b0 && c0 && as) o->shape = SH_WRITE_S;
    else if (!write && p->ldc && at && !p->bgts_e && p->bgts_m && p->bcmp && p->cgts_c && !p->ccmp)
        o->shape = SH_CARRY_T_NM;
    /* an Enable load that only darkens (E ← E ∧ f) joins: a chip whose E
     * becomes all 0 there stops (seg_chip), dark chips stay dark */
    o->kind = !p->lde || (!p->agts_t && enable_stays_0_calc(e, p)) ? (write || p->ldc || p->lde ? OPK_JOIN : OPK_SENSE)
                                                              : OPK_STEP;
    if (g->ntmpl < TMPL_MAX) g->tmap[key] = (uint16_t)((const char *)&g->tmpl[g->ntmpl++] - (const char *)g);
    return o;
}

static inline const seg_op *seg_tmpl(const pp5_emc *e, seg *g, unsigned key)
{
    unsigned off = g->tmap[key];
    return off ? (const seg_op *)(const void *)((const char *)g + off) : seg_tmpl_make(e, g, key);
}

/* seg_add's answer: the word joined the segment; it cannot (its T bit may
 * still change: the caller steps it); the segment is full (SEG_MAX ops: the
 * caller flushes it and adds the word again) */
enum { SEG_ADDED, SEG_STEP, SEG_FULL };

/* R_T for a word that reads T, from pp5_emc_run's QEE locals (what
 * QEE_RT_PUT would store, without the stores and their loads back): the
 * shift count sh, the collecting set into and its bit count m. T is bit
 * *k of e->set[*set] (*set = -1: T = 0); false when that bit is not final
 * yet (the word steps). */
static inline __attribute__((always_inline)) bool qee_rt_now(const pp5_emc *e, const qee_set *into, uint64_t m,
                                                              uint64_t sh, int *set, int *k)
{
    int rs, rk;
    if (sh != e->shifts) { /* (a short step since the last full one: the plan's R_T) */
        rs = e->q_rt;
        rk = (int)(sh - 1 - e->q_rt_base);
    } else {
        rs = e->rt_set;
        rk = e->rt_k;
    }
    *set = -1;
    *k = 0;
    if (rs < 0 || rk >= 128) return true;
    const qee_set *s = &e->set[rs];
    int sm = s == into ? (int)m : s->m;
    /* bit k is final once coefficient bit k has arrived (or no more will) */
    if (!(rk < sm || !s->open || sm >= 128)) return false;
    *set = rs;
    *k = rk;
    return true;
}

/* The word of pins p (ALU controls; its template t of kind OPK_JOIN or
 * OPK_SENSE) joins the segment (g with its decode state d); T is bit k of
 * coefficient set set_ring (-1: T = 0, or the word does not read T:
 * qee_rt_now). lde: the word may load Enable (a constant where it is
 * inlined: the common words' copy has no Enable code). */
static inline __attribute__((always_inline)) int seg_add(pp5_emc *e, seg *g, seg_dec *d, int addr, int set_ring,
                                                         int k, const seg_op *t, bool lde)
{
    bool valid = addr < PP5_EMC_MEM_BITS;
    if (t->kind == OPK_SENSE) { /* changes nothing: S follows the read */
        if (!valid) e->warnings++; /* A-16 */
        seg_sense(d, addr);
        return SEG_ADDED;
    }
    if (t->fill && d->n && d->clocks && d->op[d->n - 1].fill && !d->prev_write) {
        /* (a fill right after a fill: the second one is all that is seen; the
         * waiting z-test repeats its Carry preset) */
        if (!valid) e->warnings++;
        seg_op *o = &d->op[d->n - 1];
        o->fill_v = t->fill_v;
        d->prev_plane = valid ? addr : PL_ZERO;
        d->clocks++;
        return SEG_ADDED;
    }
    if (d->n == SEG_MAX) return SEG_FULL;
    if (!valid) e->warnings++;
    seg_op *o = &d->op[d->n++];
    memcpy(o, t, SEG_TMPL_BYTES);
    int m_plane = valid ? addr : PL_ZERO, s_plane = d->clocks ? d->prev_plane : PL_ZERO;
    o->m_plane = (int16_t)m_plane;
    if (lde && t->lde) g->has_lde = true;
    o->set_ring = (int8_t)set_ring;
    o->k = (uint8_t)k;
    o->ldc_rank = (int16_t)d->nldc;
    if (t->ldc) {
        if (t->need_t && set_ring >= 0) g->ldc_rings |= 1u << set_ring;
        d->nldc++;
        g->last_ldc = d->n - 1;
        if (t->fill || !t->reads_c) g->last_over = d->n - 1;
    }
    o->s_plane = (int16_t)s_plane;
    if (!d->clocks) {
        o->s_mode = S_INIT;
        o->s_addr = (int16_t)e->s_addr;
    } else {
        o->s_mode = d->prev_write ? S_PREV_M : S_PLANE;
        o->s_addr = (int16_t)(s_plane == PL_ZERO ? -1 : s_plane);
    }
    o->m0 = g->pl0[m_plane];
    o->s0 = g->pl0[s_plane];
    o->t_same = 0;
    o->run = 0;
    if (t->need_t) {
        bool same = g->last_t_ring == set_ring && g->last_t_k == k;
        o->t_same = same;
        if (!same) { /* (the same set and bit as the last T op: the set's bookkeeping has it) */
            if (set_ring >= 0) {
                seg_set *ss = &g->set[set_ring];
                if (set_ring != g->last_t_ring) { /* (the same set: the segment's has it) */
                    if (k > ss->kmax) ss->kmax = k;
                    if (k < ss->kmin) ss->kmin = k;
                    g->has_t = true;
                    if (e->set[set_ring].uid < g->min_uid) g->min_uid = e->set[set_ring].uid;
                } else if (k > g->last_t_k) { /* (above a bit read: not the lowest) */
                    if (k > ss->kmax) ss->kmax = k;
                } else if (k < ss->kmin)
                    ss->kmin = k;
            }
            g->last_t_ring = set_ring;
            g->last_t_k = k;
        }
    }
    d->prev_plane = m_plane;
    d->prev_write = t->write;
    d->clocks++;
    return SEG_ADDED;
}

/* The collecting set's coefficient bits lo .. hi-1 of the short path ORed
 * into set s: dat[j] holds bit j of coefficient c at bit 8c (the pins'
 * dat[0..5] masked to bit 0, stored as one 64-bit word a shift: each is read
 * back by a load of its size, which store forwarding serves). Eight words
 * ORed at shifts 0..7 transpose them: byte c then holds bits b .. b+7 of
 * coefficient c (dat has room for the words past hi up to the next
 * multiple of 8, all holding only bits 8c: the words outside lo .. hi-1 are
 * masked off after the transpose). */
static void qee_bits_put(qee_set *s, const uint64_t *dat, int lo, int hi)
{
    for (int half = lo >> 6; half <= (hi - 1) >> 6; half++) { /* (64-bit halves: no 128-bit shifts) */
        uint64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0;
        int b0 = lo > half * 64 ? lo & ~7 : half * 64, b1 = hi < half * 64 + 64 ? hi : half * 64 + 64;
        for (int b = b0; b < b1; b += 8) {
            uint64_t x = dat[b] | dat[b + 1] << 1 | dat[b + 2] << 2 | dat[b + 3] << 3 | dat[b + 4] << 4 |
                         dat[b + 5] << 5 | dat[b + 6] << 6 | dat[b + 7] << 7;
            unsigned keep = (hi - b >= 8 ? 0xffu : (1u << (hi - b)) - 1) & (0xffu << (lo > b ? lo - b : 0));
            x &= keep * 0x010101010101ull;
            int at = b & 63;
            w0 |= (x & 0xff) << at;
            w1 |= (x >> 8 & 0xff) << at;
            w2 |= (x >> 16 & 0xff) << at;
            w3 |= (x >> 24 & 0xff) << at;
            w4 |= (x >> 32 & 0xff) << at;
            w5 |= (x >> 40 & 0xff) << at;
        }
        int up = half * 64;
        s->coef[0] |= (u128)w0 << up;
        s->coef[1] |= (u128)w1 << up;
        s->coef[2] |= (u128)w2 << up;
        s->coef[3] |= (u128)w3 << up;
        s->coef[4] |= (u128)w4 << up;
        s->coef[5] |= (u128)w5 << up;
    }
}

#if defined(EMC_AVX512)
/* qee_bits_put with AVX-512 VBMI and GFNI, a 64-bit half at a time: the
 * half's 64 words (8 vectors of 8; only bit 0 of bytes 0..5 is set in each)
 * merged into one, group g shifted by g (word j, byte c, bit g = bit 8g + j
 * of coefficient c), then field8's bit transpose puts bit 8g + j of
 * coefficient c at word c, byte g, bit j. dat must hold the words of each
 * half it touches (pp5_emc_run's cdat: 256 + 8). */
__attribute__((target("avx512f,avx512bw,avx512vbmi,gfni"))) static void qee_bits_put_gfni(qee_set *s,
                                                                                         const uint64_t *dat, int lo,
                                                                                         int hi)
{
    for (int half = lo >> 6; half <= (hi - 1) >> 6; half++) {
        const uint64_t *d = dat + half * 64;
#define BITS_GROUP(g) _mm512_slli_epi64(_mm512_loadu_si512(d + 8 * (g)), g) /* (shift counts constant) */
        __m512i y = _mm512_or_si512(_mm512_or_si512(_mm512_or_si512(BITS_GROUP(0), BITS_GROUP(1)),
                                                     _mm512_or_si512(BITS_GROUP(2), BITS_GROUP(3))),
                                    _mm512_or_si512(_mm512_or_si512(BITS_GROUP(4), BITS_GROUP(5)),
                                                    _mm512_or_si512(BITS_GROUP(6), BITS_GROUP(7))));
#undef BITS_GROUP
        int b0 = lo > half * 64 ? lo - half * 64 : 0, b1 = hi < half * 64 + 64 ? hi - half * 64 : 64;
        uint64_t keep = (b1 == 64 ? ~0ull : (1ull << b1) - 1) & (~0ull << b0), w[8];
        _mm512_storeu_si512(w, _mm512_and_si512(bits_transpose_8x64_gfni(y), _mm512_set1_epi64((long long)keep)));
        if (half) /* (a constant shift: a variable 128-bit shift costs a few instructions a coefficient) */
            for (int c = 0; c < 6; c++) s->coef[c] |= (u128)w[c] << 64;
        else
            for (int c = 0; c < 6; c++) s->coef[c] |= w[c];
    }
}
#endif

/* Pins p load Carry or Enable, write, or are a redundant code (else the clock
 * only reads: seg_sense). */
_Static_assert(offsetof(pp5_pins, ldc) + 1 == offsetof(pp5_pins, lde) &&
                   offsetof(pp5_pins, lde) + 1 == offsetof(pp5_pins, mwrt) &&
                   offsetof(pp5_pins, ldc) + 6 == offsetof(pp5_pins, redundant),
               "pp5_pins: ldc, lde, mwrt .. redundant in one 8-byte word");
static inline bool pins_change(const pp5_pins *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, &p->ldc, 8); /* (ldc lde mwrt extop config_mode pair redundant dat[0]) */
    return (w & 0x00ff000000ffffffull) != 0;
#else
    return (p->ldc | p->lde | p->mwrt | p->redundant) != 0;
#endif
}

/* dat[0..5] of pins p, bit 0 of each, as bits 0, 8, .., 40 (qee_bits_put) */
static inline uint64_t dat_bits(const pp5_pins *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t dat;
    memcpy(&dat, p->dat, 8); /* (dat[0..5], then lsb and addr_l: masked off) */
    return dat & 0x010101010101ull;
#else
    uint64_t dat = 0;
    for (int c = 0; c < 6; c++) dat |= (uint64_t)(p->dat[c] & 1) << 8 * c;
    return dat;
#endif
}

/* (GCC's straight-line vectorizer packs the decode's counters into one
 * vector register and unpacks them every clock: −6 % in the decode alone) */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize")))
#endif
void pp5_emc_run(pp5_emc *e, const pp5_pins *pins, size_t n)
{
    seg *g = e->seg;
    if (!g) {
        for (size_t i = 0; i < n; i++) pp5_emc_step(e, &pins[i]);
        return;
    }
    /* (the segment the last block left open carries on) */
    /* the pin latches are the previous clock's pins: read there, written back
     * before the clock-by-clock path and at the end */
    /* (the loop reads the previous clock's pins at p − 1, one register fewer
     * than a pointer of its own: the first clock runs on a copy of pins[0]
     * that follows the latches, head[1], the rest on pins[1 .. n)) */
    pp5_pins head[2];
    memset(head, 0, sizeof head);
    head[0].addr_l = e->lat_addr_l;
    head[0].addr_h = e->lat_addr_h;
    memcpy(head[0].dat, e->lat_dat, 6);
    head[0].lsb = e->lat_lsb;
    if (n) head[1] = pins[0];
    seg_dec d;
    seg_dec_get(g, &d);
    /* The QEE's short path (qee_step) in locals: the collecting set's bit
     * count m (stored in the set before seg_add reads it), the shift count
     * sh_base + m, and the set's coefficient bits of the shifts since bit
     * m_lo, one word a shift (cdat, ORed into the set before anything reads its coefficients:
     * QEE_PUT); e->shifts, R_T's set and bit index are brought up to date when
     * something reads them (QEE_RT_PUT). Every clock stores its coefficient
     * bits at m (a clock without TrSt: overwritten by the next one, or past
     * the bits read; with a collecting set m ≤ 128, the shift that fills it
     * stores at 128: cdat has room, bit 0 stays). With no collecting set, m
     * counts into nothing (cdat[m & 255]). A full step (qee_shift) that
     * collects into the same set leaves its bits to cdat too (kept). */
    qee_set *into;
    /* (the shift count is sh_base + m: both advance on a short step, so the
     * loop carries m alone, and the planned event is a bit count, m_event) */
    uint64_t m, m_lo, sh_base, m_event;
    uint64_t cdat[256 + 8];
    memset(cdat, 0, sizeof cdat); /* (qee_bits_put reads whole groups of eight, the GFNI form halves) */
    void (*const bits_put)(qee_set *, const uint64_t *, int, int) =
#if defined(EMC_AVX512)
        e->bits_gfni ? qee_bits_put_gfni :
#endif
                     qee_bits_put;
#define QEE_SH_GET()                                                                               \
    do {                                                                                           \
        sh_base = e->shifts - m;                                                                   \
        m_event = e->q_event >= sh_base ? e->q_event - sh_base : 0;                                \
    } while (0)
#define QEE_GET()                                                                                  \
    do {                                                                                           \
        into = e->q_into >= 0 ? &e->set[e->q_into] : NULL;                                         \
        m = m_lo = into ? (uint64_t)into->m : 0;                                                   \
        QEE_SH_GET();                                                                              \
    } while (0)
#define QEE_RT_PUT()                                                                               \
    do {                                                                                           \
        uint64_t sh_ = sh_base + m;                                                                \
        if (into) into->m = (int)m;                                                                \
        if (sh_ != e->shifts) {                                                                    \
            e->rt_set = e->q_rt;                                                                   \
            if (e->q_rt >= 0) e->rt_k = (int)(sh_ - 1 - e->q_rt_base);                             \
            e->shifts = sh_;                                                                       \
        }                                                                                          \
    } while (0)
#define QEE_PUT()                                                                                  \
    do {                                                                                           \
        QEE_RT_PUT();                                                                              \
        if (m > m_lo && into) bits_put(into, cdat, (int)m_lo, (int)m);                             \
        m_lo = m;                                                                                  \
    } while (0)
    QEE_GET();
    /* two ranges, one loop body: head[1] (none when n = 0), then pins[1 .. n) */
    const pp5_pins *p = head + 1, *end = n ? head + 2 : head + 1;
    for (int range = 0; range < 2; range++, p = pins + (n > 0), end = pins + n)
    for (; p < end; p++) { /* (not indented: the clock's body) */
        const pp5_pins *const prev = p - 1;
        /* the shift's coefficient bits (a clock without TrSt: overwritten by
         * the next one, or past the bits read) */
        cdat[m & 255] = dat_bits(prev);
        if (p->trst) {
            if (__builtin_expect(prev->lsb || m >= m_event, 0)) {
                /* the QEE's full step (an event of qee_plan, a new LSB token):
                 * when it collects into the set the short path would (into,
                 * the plan's), the bits just stored stand and qee_shift only
                 * counts them (kept); else it collects them itself */
                QEE_RT_PUT();
                /* a new set would take the ring slot of one the segment reads */
                if (prev->lsb && g->has_t && e->nset_total >= QEE_SETS &&
                    (uint64_t)(e->nset_total - QEE_SETS) >= g->min_uid) {
                    QEE_PUT();
                    seg_dec_put(g, &d);
                    pp5_emcf_seg_flush(e, g);
                    seg_dec_get(g, &d);
                }
                latch_pins(e, prev);
                pp5_emcf_qee_shift(e, into); /* (into's bits of this shift: cdat[m]) */
                if (into) m = (uint64_t)into->m;
                QEE_SH_GET(); /* (e->shifts and R_T are qee_shift's) */
                if (e->q_into < 0 || &e->set[e->q_into] != into) { /* (another collecting set) */
                    QEE_PUT();
                    QEE_GET();
                }
            } else {
                /* qee_step's short path (a branch on TrSt, not m += TrSt: the
                 * next clock's store address would wait on this clock's TrSt
                 * load; the branch is predicted) */
                m++;
            }
        }
        int addr = prev->addr_l;
        int added = SEG_ADDED, t_set = -1, t_k = 0;
        if (!pins_change(p)) {
            /* a run of clocks that only read: the clocks after this one
             * while they only read too and their QEE step is the short one
             * (no LSB token before them, no planned event); only the
             * coefficient bits and m change there, S follows the run's last
             * read */
            const pp5_pins *q = p;
            while (q + 1 < end && !pins_change(q + 1)) {
                cdat[m & 255] = dat_bits(q);
                if (q[1].trst) {
                    if (q->lsb || m >= m_event) break;
                    m++;
                }
                q++;
            }
            d.clocks += (int)(q - p);
            p = q;
            seg_sense(&d, p[-1].addr_l);
        } else if (!(p->lde | p->redundant)) {
            /* (a word that loads no Enable joins: OPK_JOIN; tested on the pins
             * first, so that the rare steps' branch does not wait on the
             * template's loads) */
            const seg_op *t = seg_tmpl(e, g, pins_key(p, addr < PP5_EMC_MEM_BITS));
            added = !p->agts_t ? seg_add(e, g, &d, addr, -1, 0, t, false)
                    : qee_rt_now(e, into, m, sh_base + m, &t_set, &t_k)
                        ? seg_add(e, g, &d, addr, t_set, t_k, t, false)
                        : SEG_STEP;
        } else if (p->redundant) {
            /* a configuration word joins a segment that has no op yet (its
             * read as a clock that only reads, after the segment's reads: S
             * follows it); after an op it steps (the segment's ops would run
             * with the new origins) */
            if (p->config_mode && d.n) added = SEG_STEP;
            else {
                for (int x = 0; x < 6; x++)
                    if (p->extop >> x & 1) e->extops[x]++; /* A-13, A-23 */
                if (p->config_mode) config_word(e, prev->addr_l, prev->addr_h, p->acmp);
                seg_sense(&d, addr);
            }
        } else {
            const seg_op *t = seg_tmpl(e, g, pins_key(p, addr < PP5_EMC_MEM_BITS));
            if (t->kind == OPK_STEP) added = SEG_STEP;
            else {
                added = !p->agts_t ? seg_add(e, g, &d, addr, -1, 0, t, true)
                        : qee_rt_now(e, into, m, sh_base + m, &t_set, &t_k)
                            ? seg_add(e, g, &d, addr, t_set, t_k, t, true)
                            : SEG_STEP;
            }
        }
        if (added == SEG_FULL) {
            QEE_PUT();
            seg_dec_put(g, &d);
            pp5_emcf_seg_flush(e, g);
            seg_dec_get(g, &d);
            /* (R_T as before: the flush changed no QEE state) */
            added = seg_add(e, g, &d, addr, t_set, t_k, seg_tmpl(e, g, pins_key(p, addr < PP5_EMC_MEM_BITS)), true);
        }
        if (added == SEG_STEP) {
            QEE_PUT();
            seg_dec_put(g, &d);
            pp5_emcf_seg_flush(e, g);
            latch_pins(e, prev);
            step_word(e, p);
            seg_dec_get(g, &d);
        }
    }
    QEE_PUT();
    seg_dec_put(g, &d);
#undef QEE_SH_GET
#undef QEE_GET
#undef QEE_RT_PUT
#undef QEE_PUT
    latch_pins(e, n > 1 ? pins + n - 1 : head + n);
    /* (the segment stays open: seg_settle) */
}
