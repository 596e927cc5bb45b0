/*
 * The runner every check program ends with: runs one Check suite with the
 * normal report and gives the exit status automake's test driver expects
 * (0 when every test passed).  One copy instead of one per program.
 */
#ifndef SCHEDSIM_TESTS_RUN_SUITE_H
#define SCHEDSIM_TESTS_RUN_SUITE_H

#include <check.h>
#include <stdlib.h>

static inline int test_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
