#include <criterion/criterion.h>
#include "fb_test.h"
Test(placeholder, builds) { cr_assert(1); }
