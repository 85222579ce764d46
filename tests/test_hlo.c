/* test_hlo.c — (being written) */
#include "support.h"

#include <criterion/criterion.h>

Test(hlo, placeholder_until_written)
{
    cr_assert(1);
}
