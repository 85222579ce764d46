/* test_rules.c — (being written) */
#include "support.h"

#include <criterion/criterion.h>

Test(rules, placeholder_until_written)
{
    cr_assert(1);
}
