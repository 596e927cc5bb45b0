/*
 * mutilate: mutilate's client threads against memcached's worker threads
 * in one domain over loopback TCP (workloads/loopback.h), as MMTests runs
 * it (mutilate.c).
 */
#ifndef SCHEDSIM_MUTILATE_H
#define SCHEDSIM_MUTILATE_H

#include <stdint.h>

#include "workloads/workload.h"

extern const struct workload_ops mutilate_ops;

/* Bytes of a GET request ("get KEY\r\n") and of its response (memcached's ASCII protocol). */
uint64_t mutilate_request_bytes(uint64_t key);
uint64_t mutilate_response_bytes(uint64_t key, uint64_t value);

#endif
