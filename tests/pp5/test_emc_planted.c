/* The differential comparison of the EMC array (emc_equal.h) is made from the
 * state list of src/pp5/model/emc_state.h, so a part of the state added there
 * is compared without editing any test. Shown here: this program is built
 * with the model's and the accelerator's EMC sources compiled with
 * PP5_PLANTED_FIELD, which adds a counter to the list that only the model
 * keeps up (the accelerator's accessor is there but left out of its clock);
 * the same comparison that test_emc_diff.c uses must find it. */
#include <string.h>
#include "test_util.h"

#include "emc_equal.h"

static void test_planted_field_caught(void **state)
{
    (void)state;
    pp5_emc *f;
    emc_ref *r;
    ls_diag d;
    assert_int_equal(pp5_emc_create(&f, NULL, &d), LS_OK);
    assert_int_equal(emc_ref_create(&r, NULL, &d), LS_OK);
    char why[256];
    assert_true(emc_state_equal(f, r, true, why, sizeof why)); /* (nothing run yet) */
    pp5_pins p;
    memset(&p, 0, sizeof p);
    p.addr_l = p.addr_h = 0xff; /* an idle clock: no write, no load */
    for (int c = 0; c < 3; c++) {
        p.cycle = (uint64_t)c;
        pp5_emc_step(f, &p);
        emc_ref_step(r, &p);
    }
    /* every other part agrees (the planted one is the list's last) */
    assert_false(emc_state_equal(f, r, true, why, sizeof why));
    assert_non_null(strstr(why, "planted"));
    pp5_emc_destroy(f);
    emc_ref_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_planted_field_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
