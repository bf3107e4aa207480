/* contact_share.c — one contact reference per scenario variant whatever its normal
 * treatment (suite_int.h: contact_share, contact_copy; docs/history.md 2026-11-26). */
#define _POSIX_C_SOURCE 200809L
#include "suite_int.h"
#include "fb_engine.h"

/* Coulomb reference r (new, of a plant with normals): the contact reference of an earlier
 * variant that differs in its normal treatment alone (the same solve, fb_contact_reference
 * sets `newton`) is shared, not solved again (the conveyor's six treatments x three cases
 * were 18 solves of ~0.6 s, now 3). */
void contact_share(suite *S, size_t r)
{
  ref_entry *re = &S->refs[r];
  const job *jb = &S->jobs[re->job];
  re->cst_src = SIZE_MAX;
  if (jb->cs.sc.plant.nn == 0)
    return;
  char ck[2048];
  size_t used = (size_t)snprintf(ck, sizeof ck, "%s|%zu|", jb->exp->scenario, jb->cs.samples);
  for (const char *p = jb->sparams; *p != '\0' && used < sizeof ck;) {
    const char *end = strchr(p, ';');
    const size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
    if (strncmp(p, "normal=", 7) != 0)
      used += (size_t)snprintf(ck + used, sizeof ck - used, "%.*s;", (int)len, p);
    p += len + (end != NULL);
  }
  /* an engine's contact reference is smooth-sign's at its defaults (contact_metrics.c) */
  const int engine = fb_engine_of_model(jb->cs.md.type) != NULL;
  if (used < sizeof ck)
    snprintf(ck + used, sizeof ck - used, "|%s|%s", engine ? "smooth-sign" : jb->exp->model,
             engine ? "" : jb->mparams);
  re->ckey = strdup(ck);
  for (size_t i = 0; re->ckey != NULL && i < r; i++)
    if (!S->refs[i].own && S->refs[i].ckey != NULL && S->refs[i].cst_src == SIZE_MAX &&
        strcmp(S->refs[i].ckey, re->ckey) == 0) {
      re->cst_src = i;
      return;
    }
}

/* After the references: the shared contact references copied to the entries that share
 * them (every entry a job still uses; resume_begin marked their sources needed). */
void contact_copy(suite *S)
{
  for (size_t r = 0; r < S->nrefs; r++) {
    ref_entry *re = &S->refs[r], *src;
    if (re->own || re->cst_src == SIZE_MAX || !re->needed)
      continue;
    src = &S->refs[re->cst_src];
    re->cst = src->cst_ok ? malloc(sizeof *re->cst) : NULL;
    re->cst_ok = re->cst != NULL;
    if (re->cst_ok)
      *re->cst = *src->cst;
  }
}
