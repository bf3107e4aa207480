/* registry.c — every model, in listing order.  Adding a model: one file, one line in
 * fb_models.h, one line here, one line in meson.build, and its tests. */
#include <stddef.h>

#include "fb_models.h"

const fb_model_type *const fb_model_registry[] = {
    &fb_model_naive_sign,
    &fb_model_smooth_sign,
    &fb_model_kikuuwe,
    &fb_model_lugre,
    &fb_model_dahl,
    &fb_model_penalty,
    &fb_model_elastoplastic,
    &fb_model_switching,
    &fb_model_glowinski,
    &fb_model_karnopp,
    &fb_model_kikuuwe_be,
    &fb_model_moreau_jean,
    NULL,
};
