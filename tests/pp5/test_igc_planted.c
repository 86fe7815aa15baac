/* The differential comparison of the IGC fast step (igc_equal.h) is made from
 * the state lists of src/pp5/model/igc/igc_state.h, so a state field added to a
 * module is compared without editing any test. Shown here: this program is
 * built with the IGC's sources compiled with PP5_PLANTED_FIELD, which adds a
 * field to the Controller's list that only the full step writes; the same
 * comparison that test_igc_fast.c uses must find it. */
#include "test_util.h"

#include "igc_equal.h"

static void test_planted_field_caught(void **state)
{
    (void)state;
    pp5_igc *a, *b;
    ls_diag d;
    assert_int_equal(pp5_igc_create(&a, NULL, &d), LS_OK);
    assert_int_equal(pp5_igc_create(&b, NULL, &d), LS_OK);
    const uint32_t idle = 0x90011000u; /* done cond jmp 0 */
    assert_int_equal(pp5_igc_load_ucode(a, 0, &idle, 1, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(b, 0, &idle, 1, &d), LS_OK);
    bool caught = false;
    for (int c = 0; c < 20 && !caught; c++) {
        pp5_host_in in = {0};
        pp5_pins pa, pb;
        assert_int_equal(pp5_igc_step(a, &in, &pa, &d), LS_OK);
        assert_int_equal(pp5_igc_step_fast(b, &in, &pb, &d), LS_OK);
        assert_true(pins_equal(&pa, &pb)); /* the pins do not show it */
        if (!state_equal(a, b)) {
            assert_non_null(strstr(why, "ctl.planted"));
            caught = true;
        }
    }
    assert_true(caught);
    pp5_igc_destroy(a);
    pp5_igc_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_planted_field_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
