#include <stdbool.h>
