/* test_run_contact.c — `fricbench run` on a scenario with normal contacts (docs/design.md
 * §12) runs what was asked or refuses, never substitutes silently: a model-owned scheme
 * named with -i (kbe-relay, moreau-jean, event) was replaced by the contact scheme without a
 * word; now it is refused with one line naming it and what is allowed (exit 2, nothing on
 * stdout), as is a generic stepper named under a fixed-step normal treatment that has no
 * inner stepper.  The documented substitutions stay and are said: a generic stepper named
 * with -i runs as the contact scheme's inner stepper (a note on stderr, stepper= in the
 * summary line), and a model's default integrator gives way to integrator=contact. */
#include <criterion/criterion.h>
#include <string.h>

#include "fb_test.h"

static char out[1 << 16], err[1 << 14];

/* The refusal: exit 2, nothing on stdout, one line naming the value and "-i contact". */
static void expect_refused(const char *const *argv, const char *value)
{
  const int rc = fbt_cli(argv, out, sizeof out, err, sizeof err);
  cr_expect_eq(rc, 2, "exit %d: %s", rc, err);
  cr_expect_eq(out[0], '\0', "no output: %.80s", out);
  cr_expect_eq(fbt_lines(err), 1, "one line: %s", err);
  char named[80];
  snprintf(named, sizeof named, "integrator %s", value);
  cr_expect(strstr(err, named) != NULL, "names %s: %s", value, err);
  cr_expect(strstr(err, "allowed is -i contact") != NULL, "says what is allowed: %s", err);
}

Test(run_contact, model_owned_scheme_named_is_refused)
{
  const char *a[] = {"run", "-s", "bouncing-ball", "-m", "kikuuwe-be", "-i", "kbe-relay",
                     "--samples", "3", NULL};
  expect_refused(a, "kbe-relay");
  const char *b[] = {"run", "-s", "bouncing-ball", "-m", "moreau-jean", "-i", "moreau-jean",
                     "--samples", "3", NULL};
  expect_refused(b, "moreau-jean");
  const char *c[] = {"run", "-s", "block-drop", "-m", "switching", "-i", "event", "--samples",
                     "3", NULL};
  expect_refused(c, "event");
}

Test(run_contact, stepper_under_a_fixed_step_normal_is_refused)
{
  const char *a[] = {"run", "-s", "bouncing-ball", "-m", "kikuuwe", "-i", "rk4", "--h", "1e-3",
                     "--set", "normal=moreau-jean", "--samples", "3", NULL};
  expect_refused(a, "rk4");
}

Test(run_contact, generic_stepper_named_is_said_and_recorded)
{
  const char *a[] = {"run", "-s", "bouncing-ball", "-m", "kikuuwe", "-i", "rk4", "--samples",
                     "3", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_expect(strstr(err, "integrator rk4 runs as the contact scheme's inner stepper") != NULL,
            "%s", err);
  cr_expect(strstr(err, " integrator=contact stepper=rk4 ") != NULL, "%s", err);
  cr_expect_eq(fbt_lines(err), 2, "the note and the summary: %s", err);
}

Test(run_contact, defaults_run_under_the_contact_scheme)
{
  /* the model's default (kbe-relay) gives way to the contact scheme, as documented */
  const char *a[] = {"run", "-s", "bouncing-ball", "-m", "kikuuwe-be", "--samples", "3", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_expect(strstr(err, " integrator=contact atol=") != NULL, "%s", err);
  cr_expect_eq(fbt_lines(err), 1, "%s", err);
  /* --h without -i: the contact scheme's step, no fixed-step integrator named for the user */
  const char *b[] = {"run", "-s", "bouncing-ball", "-m", "kikuuwe-be", "--h", "1e-3", "--set",
                     "normal=moreau-jean", "--samples", "3", NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_expect(strstr(err, " integrator=contact h=0.001 ") != NULL, "%s", err);
  const char *c[] = {"run", "-s", "bouncing-ball", "-m", "kikuuwe", "-i", "contact",
                     "--samples", "3", NULL};
  cr_assert_eq(fbt_cli(c, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_expect(strstr(err, " integrator=contact atol=") != NULL, "%s", err);
}
