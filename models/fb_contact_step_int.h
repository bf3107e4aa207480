/* fb_contact_step_int.h — the per-contact step kinds as the library's own objects
 * (models/contact_step.c); a caller outside finds them by name, fb_contact_step_find. */
#ifndef FB_CONTACT_STEP_INT_H
#define FB_CONTACT_STEP_INT_H

#include "fb_contact_step.h"

/* The implicit-Euler relay step of Coulomb's set-valued law (models/contact_step.c). */
extern const fb_contact_step_type fb_contact_step_relay;
extern const fb_contact_step_type fb_contact_step_kikuuwe_be;

/* Registry (models/contact_step.c), NULL-terminated. */
extern const fb_contact_step_type *const fb_contact_step_registry[];
#endif
