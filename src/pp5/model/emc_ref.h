/* The EMC array model: readable, pixel by pixel, no speed tricks (the model
 * of record for src/pp5/accel/emc.c, the fast array; tests/pp5/test_emc_diff.c
 * compares them). pp5 render --engine model draws with it. */
#ifndef LOCKSTEP_PP5_MODEL_EMC_REF_H
#define LOCKSTEP_PP5_MODEL_EMC_REF_H
#include "lockstep/pp5_emc.h"

typedef struct emc_ref emc_ref;
/* The geometry and latency the EMC array accepts (both arrays use it). */
ls_status emc_ref_check_options(const pp5_emc_options *o, ls_diag *d);
ls_status emc_ref_create(emc_ref **out, const pp5_emc_options *opt, ls_diag *d);
void emc_ref_destroy(emc_ref *e);
void emc_ref_step(emc_ref *e, const pp5_pins *p);
int emc_ref_width(const emc_ref *e);
int emc_ref_height(const emc_ref *e);
int emc_ref_chips(const emc_ref *e);
int emc_ref_mem_bit(const emc_ref *e, int x, int y, int a);
uint64_t emc_ref_field(const emc_ref *e, int x, int y, int a, int len);
void emc_ref_set_field(emc_ref *e, int x, int y, int a, int len, uint64_t v);
int emc_ref_enable(const emc_ref *e, int x, int y);
int emc_ref_carry(const emc_ref *e, int x, int y);
uint32_t emc_ref_config(const emc_ref *e, int k);
void emc_ref_set_config(emc_ref *e, int k, uint32_t v);
uint64_t emc_ref_extop_count(const emc_ref *e, int i);
uint64_t emc_ref_warning_count(const emc_ref *e);
uint64_t emc_ref_sets(const emc_ref *e);
/* Plane `which` (0..207 memory, PP5_EMC_PLANE_E, PP5_EMC_PLANE_CARRY) in
 * row-major pixel order (p = y·width + x, bit p%64 of word p/64). */
void emc_ref_plane(const emc_ref *e, int which, uint64_t *out);
#endif
