/*
 * A circular doubly linked list with the semantics of Xen's xen/list.h
 * (list_add, list_add_tail, list_del_init, list_for_each ...), so that a
 * scheduler model that keeps Xen's queues can walk them the way Xen does
 * and a reader can hold the two side by side.  The head is a struct
 * sched_list of its own; an entry embeds one and finds its container
 * with list_entry.  An entry that is on no list points to itself
 * (list_del_init), so list_empty(&entry) tells whether it is queued.
 */
#ifndef SCHEDSIM_LIST_H
#define SCHEDSIM_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct sched_list {
	struct sched_list *prev, *next;
};

#define list_entry(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static inline void list_init(struct sched_list *l)
{
	l->prev = l->next = l;
}

static inline bool list_empty(const struct sched_list *l)
{
	return l->next == l;
}

/* Inserts e just before 'at' (at the tail when 'at' is the head). */
static inline void list_add_tail(struct sched_list *e, struct sched_list *at)
{
	e->prev = at->prev;
	e->next = at;
	at->prev->next = e;
	at->prev = e;
}

/* Inserts e right after 'head' (at the front when it is the head). */
static inline void list_add(struct sched_list *e, struct sched_list *head)
{
	list_add_tail(e, head->next);
}

static inline void list_del_init(struct sched_list *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	list_init(e);
}

#define list_for_each(it, head) for ((it) = (head)->next; (it) != (head); (it) = (it)->next)
/* The same, when the body may unlink 'it' (tmp keeps the next entry). */
#define list_for_each_safe(it, tmp, head) \
	for ((it) = (head)->next, (tmp) = (it)->next; (it) != (head); (it) = (tmp), (tmp) = (it)->next)

#endif
