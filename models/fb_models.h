/* fb_models.h — one exported type per model file, listed in registry.c. */
#ifndef FB_MODELS_H
#define FB_MODELS_H

#include "fb_model.h"

extern const fb_model_type fb_model_naive_sign;
extern const fb_model_type fb_model_smooth_sign;
extern const fb_model_type fb_model_kikuuwe;
extern const fb_model_type fb_model_lugre;
extern const fb_model_type fb_model_dahl;
extern const fb_model_type fb_model_penalty;
extern const fb_model_type fb_model_elastoplastic;
extern const fb_model_type fb_model_switching;
extern const fb_model_type fb_model_glowinski;
extern const fb_model_type fb_model_karnopp;
extern const fb_model_type fb_model_kikuuwe_be;
extern const fb_model_type fb_model_moreau_jean;

#endif
