// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/trimcheck.h: no device under the one to check is in use by another
 * (the safety contract's "held by another device", layer by layer).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "r0/probe.h"
#include "r0/trimcheck.h"

int r0_stack_check(const struct r0_trim_device *t, char *why, size_t why_len)
{
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];

		if (t->kind == R0_TRIM_SINGLE && m->devt == t->devt)
			continue;
		for (unsigned d = 0; d <= m->depth; d++) {
			struct r0_device dev;
			char busy[256], allowed[2 * R0_KNAME_LEN + 2];
			/* a thin volume's data device is held by its pool, not by the volume */
			bool by_pool = d ? !strcmp(m->chain_type[d - 1], "thin") :
				t->stack.node[0].kind == R0_NODE_THIN;
			int err = r0_probe_devt(m->chain[d], NULL, &dev);

			/* the pool's metadata LV may share a PV with its data (LVM puts both on one) */
			snprintf(allowed, sizeof(allowed), "%s %s", d ? m->chain_kname[d - 1] : t->kname,
				 t->thin_meta_kname);

			if (err) {
				snprintf(why, why_len, "member %s: %s", m->chain_kname[d], strerror(-err));
				return err;
			}
			if (r0_device_is_busy_beside(&dev, by_pool ? R0_ANY_HOLDER : allowed, busy, sizeof(busy)))
				err = -EBUSY;
			if (err)
				snprintf(why, why_len, "member %s: %s", dev.kname, busy);
			r0_device_free(&dev);
			if (err)
				return err;
		}
	}
	return 0;
}
