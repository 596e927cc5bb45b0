/* Xen guest_access.h (up to 2017): nothing used. */
