/* test_viz.c — (being written) */
#include "support.h"

#include <criterion/criterion.h>

Test(viz, placeholder_until_written)
{
    cr_assert(1);
}
