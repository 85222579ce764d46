/* test_cli.c — (being written) */
#include "support.h"

#include <criterion/criterion.h>

Test(cli, placeholder_until_written)
{
    cr_assert(1);
}
