/*
 * The report of `schedsim validate` (sim/experiment/validate.h): the
 * published figures beside the model's with their errors, and the signs
 * of the comparisons, as text, JSON (doc/validation.md describes it) and
 * one self-contained HTML page.
 */
#ifndef SCHEDSIM_VALIDATE_REPORT_H
#define SCHEDSIM_VALIDATE_REPORT_H

#include <stdio.h>

#include "sim/experiment/validate.h"

void validate_report_text(FILE *f, const struct validation *v);
void validate_report_json(FILE *f, const struct validation *v);
void validate_report_html(FILE *f, const struct validation *v, const char *command);

#endif
