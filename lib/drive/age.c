// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0age's states as engine workloads, its argument parsers, and the state
 * record (schema r0age-state/1) kept per device in /run/r0kit/state.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "r0/age.h"
#include "r0/size.h"
#include "r0/steady.h"
#include "r0/jsonfields.h"
#include "r0/jsontext.h"

static const char *const state_names[] = {
	[R0_AGE_EMPTY] = "empty", [R0_AGE_FILL] = "fill", [R0_AGE_USED] = "used",
	[R0_AGE_STEADY] = "steady",
};

const char *r0_age_state_name(enum r0_age_state s)
{
	return (unsigned)s < sizeof(state_names) / sizeof(state_names[0]) ? state_names[s] : "?";
}

int r0_age_parse_state(const char *s, enum r0_age_state *out)
{
	for (size_t i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++)
		if (s && !strcmp(s, state_names[i])) {
			*out = (enum r0_age_state)i;
			return 0;
		}
	return -EINVAL;
}

void r0_age_params_init(enum r0_age_state state, struct r0_age_params *p)
{
	memset(p, 0, sizeof(*p));
	p->state = state;
	p->fill_pct = R0_AGE_FILL_PCT_DEFAULT;
	p->round_ns = R0_AGE_ROUND_NS_DEFAULT;
	p->max_rounds = R0_AGE_ROUNDS_DEFAULT;
	p->block_bytes = R0_AGE_RANDOM_BLOCK_BYTES;
	p->queue_depth = R0_AGE_RANDOM_QD;
	p->seed = 1;
}

int r0_age_parse_pct(const char *s, unsigned *pct)
{
	return r0_parse_pct(s, 1, 100, pct);
}

/* --- plans ------------------------------------------------------------ */

static int why(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static void add_step(struct r0_age_plan *plan, enum r0_age_step_kind kind,
		     const struct r0_workload *w)
{
	plan->steps[plan->n_steps].kind = kind;
	plan->steps[plan->n_steps].w = *w;
	plan->n_steps++;
}

/*
 * Sequential steps that cover [0, span) exactly once: whole blocks of
 * BLOCK, then the remainder as one I/O.
 */
static void add_exact(struct r0_age_plan *plan, enum r0_age_step_kind kind,
		      const struct r0_workload *base, uint64_t span, uint32_t block)
{
	struct r0_workload w = *base;
	uint64_t whole = span - span % block;

	if (whole) {
		w.block_bytes = block;
		w.offset_bytes = 0;
		w.span_bytes = whole;
		add_step(plan, kind, &w);
	}
	if (span % block) {
		w.block_bytes = (uint32_t)(span % block);
		w.offset_bytes = whole;
		w.span_bytes = span % block;
		add_step(plan, kind, &w);
	}
	plan->planned_bytes += span;
}

int r0_age_plan(const struct r0_age_params *p, uint64_t dev_bytes, uint32_t lbs,
		struct r0_age_plan *plan, char *why_buf, size_t why_len)
{
	struct r0_workload seq = { .access = R0_ACCESS_SEQ, .read_pct = 0, .queue_depth = 4,
				   .jobs = 1 }, rnd;
	uint64_t span;

	memset(plan, 0, sizeof(*plan));
	if (!p || !lbs || lbs % 512)
		return why(why_buf, why_len, "logical block size %u is not a multiple of 512", lbs);
	if (dev_bytes < lbs || dev_bytes % lbs)
		return why(why_buf, why_len, "device size %llu is not a whole number of %u-byte blocks",
			   (unsigned long long)dev_bytes, lbs);
	seq.seed = p->seed;
	rnd = (struct r0_workload){ .access = R0_ACCESS_RAND, .read_pct = 0,
				    .block_bytes = p->block_bytes, .queue_depth = p->queue_depth,
				    .jobs = 1, .seed = p->seed };
	if (p->state == R0_AGE_USED || p->state == R0_AGE_STEADY) {
		if (!p->block_bytes || p->block_bytes % lbs || p->block_bytes > R0_BLOCK_MAX)
			return why(why_buf, why_len, "block size %u is not a multiple of the logical block size %u",
				   p->block_bytes, lbs);
		if (!p->queue_depth || p->queue_depth > R0_QD_MAX)
			return why(why_buf, why_len, "queue depth %u is outside 1..%u", p->queue_depth,
				   R0_QD_MAX);
	}
	switch (p->state) {
	case R0_AGE_EMPTY:
		seq.trim = true;
		seq.queue_depth = 1;
		plan->span_bytes = dev_bytes;
		add_exact(plan, R0_AGE_STEP_DISCARD, &seq, dev_bytes, R0_AGE_DISCARD_BLOCK_BYTES);
		return 0;
	case R0_AGE_FILL:
	case R0_AGE_USED:
		if (p->fill_pct < 1 || p->fill_pct > 100)
			return why(why_buf, why_len, "fill percentage %u is outside 1..100", p->fill_pct);
		span = (uint64_t)((unsigned __int128)dev_bytes * p->fill_pct / 100);
		span -= span % lbs;
		if (!span)
			return why(why_buf, why_len, "%u %% of %llu bytes is less than one block",
				   p->fill_pct, (unsigned long long)dev_bytes);
		plan->span_bytes = span;
		add_exact(plan, R0_AGE_STEP_FILL, &seq, span, R0_AGE_FILL_BLOCK_BYTES);
		if (p->state == R0_AGE_FILL)
			return 0;
		if (!p->duration_ns)
			return why(why_buf, why_len, "used needs a duration above 0");
		if (span < p->block_bytes)
			return why(why_buf, why_len, "the filled span of %llu bytes is smaller than the block size %u",
				   (unsigned long long)span, p->block_bytes);
		rnd.span_bytes = span;
		rnd.runtime_ns = p->duration_ns;
		add_step(plan, R0_AGE_STEP_RANDOM, &rnd);
		return 0;
	case R0_AGE_STEADY:
		if (!p->round_ns)
			return why(why_buf, why_len, "steady needs a round length above 0");
		if (p->max_rounds < R0_STEADY_SNIA.window || p->max_rounds > R0_AGE_ROUNDS_MAX)
			return why(why_buf, why_len, "rounds %u is outside %zu..%u (a window is %zu rounds)",
				   p->max_rounds, R0_STEADY_SNIA.window, R0_AGE_ROUNDS_MAX,
				   R0_STEADY_SNIA.window);
		span = dev_bytes - dev_bytes % R0_AGE_FILL_BLOCK_BYTES;
		if (!span || dev_bytes < p->block_bytes)
			return why(why_buf, why_len, "the device is smaller than a 128K block");
		plan->span_bytes = dev_bytes;
		seq.span_bytes = span;
		seq.block_bytes = R0_AGE_FILL_BLOCK_BYTES;
		seq.size_bytes = R0_AGE_PRECONDITION_PASSES * span;
		add_step(plan, R0_AGE_STEP_PRECONDITION, &seq);
		plan->planned_bytes = seq.size_bytes;
		rnd.runtime_ns = p->round_ns;
		add_step(plan, R0_AGE_STEP_ROUND, &rnd);
		return 0;
	}
	return why(why_buf, why_len, "unknown state %d", (int)p->state);
}

/* --- the state record ------------------------------------------------- */


static json_object *j_time(time_t t)
{
	char buf[64];
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NULL;
	return json_object_new_string(buf);
}

static int parse_time(const char *s, time_t *t)
{
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;

	if (!end || *end)
		return -EINVAL;
	*t = timegm(&tm);
	return 0;
}

json_object *r0_state_record_json(const struct r0_state_record *r)
{
	json_object *o = r0_json_doc_new(R0_STATE_SCHEMA), *dev, *par, *st = NULL;
	const struct r0_age_params *p = &r->params;
	bool fill = r->state == R0_AGE_FILL || r->state == R0_AGE_USED;
	char devt[32];

	if (!o)
		return NULL;
	snprintf(devt, sizeof(devt), "%u:%u", major(r->devt), minor(r->devt));
	r0_json_set(o, "tool", json_object_new_string("r0age"));
	r0_json_set(o, "version", json_object_new_string(r->version));
	r0_json_set(o, "state", json_object_new_string(r0_age_state_name(r->state)));
	r0_json_set(o, "complete", json_object_new_boolean(r->complete));
	dev = json_object_new_object();
	r0_json_set(dev, "path", json_object_new_string(r->device_path));
	r0_json_set(dev, "devt", json_object_new_string(devt));
	r0_json_set(dev, "size_bytes", json_object_new_uint64(r->device_bytes));
	r0_json_set(o, "device", dev);
	par = json_object_new_object();
	r0_json_set(par, "fill_pct", fill ? json_object_new_int((int)p->fill_pct) : NULL);
	r0_json_set(par, "duration_s", r->state == R0_AGE_USED ?
	    json_object_new_double((double)p->duration_ns / 1e9) : NULL);
	r0_json_set(par, "round_s", r->state == R0_AGE_STEADY ?
	    json_object_new_double((double)p->round_ns / 1e9) : NULL);
	r0_json_set(par, "max_rounds", r->state == R0_AGE_STEADY ?
	    json_object_new_int((int)p->max_rounds) : NULL);
	r0_json_set(par, "block_bytes", r->state >= R0_AGE_USED ?
	    json_object_new_uint64(p->block_bytes) : NULL);
	r0_json_set(par, "queue_depth", r->state >= R0_AGE_USED ?
	    json_object_new_int((int)p->queue_depth) : NULL);
	r0_json_set(par, "seed", json_object_new_uint64(p->seed));
	r0_json_set(o, "parameters", par);
	r0_json_set(o, "started", j_time(r->started));
	r0_json_set(o, "finished", j_time(r->finished));
	r0_json_set(o, "seconds", json_object_new_double(r->seconds));
	r0_json_set(o, "bytes_written", json_object_new_uint64(r->bytes_written));
	r0_json_set(o, "bytes_discarded", json_object_new_uint64(r->bytes_discarded));
	if (r->state == R0_AGE_STEADY) {
		json_object *a = json_object_new_array(), *rule = json_object_new_object();
		unsigned n = r->rounds < R0_AGE_ROUNDS_MAX ? r->rounds : R0_AGE_ROUNDS_MAX;

		st = json_object_new_object();
		r0_json_set(st, "reached", json_object_new_boolean(r->steady_round > 0));
		r0_json_set(st, "round", r->steady_round ? json_object_new_int((int)r->steady_round) : NULL);
		r0_json_set(st, "rounds", json_object_new_int((int)r->rounds));
		r0_json_set(st, "metric", json_object_new_string("write_iops"));
		for (unsigned i = 0; i < n; i++)
			json_object_array_add(a, json_object_new_double(r->round_iops[i]));
		r0_json_set(st, "round_iops", a);
		r0_json_set(rule, "window", json_object_new_int((int)R0_STEADY_SNIA.window));
		r0_json_set(rule, "range_frac", json_object_new_double(R0_STEADY_SNIA.range_frac));
		r0_json_set(rule, "slope_frac", json_object_new_double(R0_STEADY_SNIA.slope_frac));
		r0_json_set(st, "rule", rule);
	}
	r0_json_set(o, "steady", st);
	return o;
}

static json_object *member(json_object *o, const char *k, json_type type, bool nullable, int *bad)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v) || (v == NULL && !nullable) ||
	    (v && !json_object_is_type(v, type) &&
	     !(type == json_type_double && json_object_is_type(v, json_type_int))))
		*bad = 1;
	return v;
}

int r0_state_record_parse(json_object *o, struct r0_state_record *r)
{
	json_object *v, *dev, *par, *st;
	unsigned maj, min;
	int bad = 0;

	memset(r, 0, sizeof(*r));
	if (!o || !json_object_is_type(o, json_type_object))
		return -EINVAL;
	v = member(o, "r0kit_schema", json_type_string, false, &bad);
	if (bad || strcmp(json_object_get_string(v), R0_STATE_SCHEMA))
		return -EINVAL;
	v = member(o, "state", json_type_string, false, &bad);
	if (bad || r0_age_parse_state(json_object_get_string(v), &r->state))
		return -EINVAL;
	r0_age_params_init(r->state, &r->params);
	r->complete = json_object_get_boolean(member(o, "complete", json_type_boolean, false, &bad));
	v = member(o, "version", json_type_string, false, &bad);
	snprintf(r->version, sizeof(r->version), "%s", v ? json_object_get_string(v) : "");
	dev = member(o, "device", json_type_object, false, &bad);
	par = member(o, "parameters", json_type_object, false, &bad);
	if (bad)
		return -EINVAL;
	v = member(dev, "path", json_type_string, false, &bad);
	snprintf(r->device_path, sizeof(r->device_path), "%s", v ? json_object_get_string(v) : "");
	v = member(dev, "devt", json_type_string, false, &bad);
	if (bad || sscanf(json_object_get_string(v), "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	r->devt = makedev(maj, min);
	r->device_bytes = json_object_get_uint64(member(dev, "size_bytes", json_type_int, false, &bad));
	if ((v = member(par, "fill_pct", json_type_int, true, &bad)))
		r->params.fill_pct = (unsigned)json_object_get_int(v);
	if ((v = member(par, "duration_s", json_type_double, true, &bad)))
		r->params.duration_ns = (uint64_t)llround(json_object_get_double(v) * 1e9);
	if ((v = member(par, "round_s", json_type_double, true, &bad)))
		r->params.round_ns = (uint64_t)llround(json_object_get_double(v) * 1e9);
	if ((v = member(par, "max_rounds", json_type_int, true, &bad)))
		r->params.max_rounds = (unsigned)json_object_get_int(v);
	if ((v = member(par, "block_bytes", json_type_int, true, &bad)))
		r->params.block_bytes = (uint32_t)json_object_get_uint64(v);
	if ((v = member(par, "queue_depth", json_type_int, true, &bad)))
		r->params.queue_depth = (unsigned)json_object_get_int(v);
	r->params.seed = json_object_get_uint64(member(par, "seed", json_type_int, false, &bad));
	if (bad)
		return -EINVAL;
	if (parse_time(json_object_get_string(member(o, "started", json_type_string, false, &bad)),
		       &r->started) ||
	    parse_time(json_object_get_string(member(o, "finished", json_type_string, false, &bad)),
		       &r->finished))
		return -EINVAL;
	r->seconds = json_object_get_double(member(o, "seconds", json_type_double, false, &bad));
	r->bytes_written = json_object_get_uint64(member(o, "bytes_written", json_type_int, false, &bad));
	r->bytes_discarded = json_object_get_uint64(member(o, "bytes_discarded", json_type_int, false, &bad));
	st = member(o, "steady", json_type_object, true, &bad);
	if (bad || (r->state == R0_AGE_STEADY) != (st != NULL))
		return -EINVAL;
	if (st) {
		json_object *a = member(st, "round_iops", json_type_array, false, &bad);
		size_t n;

		r->rounds = (unsigned)json_object_get_int(member(st, "rounds", json_type_int, false, &bad));
		if ((v = member(st, "round", json_type_int, true, &bad)))
			r->steady_round = (unsigned)json_object_get_int(v);
		if (bad)
			return -EINVAL;
		n = json_object_array_length(a);
		if (n > R0_AGE_ROUNDS_MAX || n != r->rounds)
			return -EINVAL;
		for (size_t i = 0; i < n; i++)
			r->round_iops[i] = json_object_get_double(json_object_array_get_idx(a, i));
	}
	return 0;
}

static int mkdir_p(const char *dir)
{
	char path[PATH_MAX];
	size_t len = strlen(dir);

	if (!len || len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (char *p = path + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = '\0';
			if (mkdir(path, 0755) && errno != EEXIST)
				return -errno;
			*p = c;
			if (!c)
				break;
		}
	}
	return 0;
}

static int record_path(const char *dir, dev_t devt, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%u:%u.json", dir, major(devt), minor(devt));

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int r0_state_save_dir(const char *dir, dev_t devt, json_object *rec)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	const char *text;
	size_t len;
	int fd = -1, ret;

	if (!dir || !rec)
		return -EINVAL;
	ret = mkdir_p(dir);
	if (ret)
		return ret;
	ret = record_path(dir, devt, path, sizeof(path));
	if (ret)
		return ret;
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	text = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	len = strlen(text);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out;
		}
		done += (size_t)n;
	}
	if (write(fd, "\n", 1) != 1 || fsync(fd)) {
		ret = errno ? -errno : -EIO;
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		ret = -errno;
		goto out;
	}
	fd = -1;
	if (rename(tmp, path))
		ret = -errno;
out:
	if (fd >= 0)
		close(fd);
	if (ret)
		unlink(tmp);
	return ret;
}

int r0_state_load_dir(const char *dir, dev_t devt, json_object **rec)
{
	char path[PATH_MAX];
	struct r0_state_record *r = NULL;
	json_object *o;
	int ret;

	if (!dir || !rec)
		return -EINVAL;
	ret = record_path(dir, devt, path, sizeof(path));
	if (ret)
		return ret;
	if (access(path, F_OK))
		return -errno;
	o = json_object_from_file(path);
	if (!o)
		return access(path, R_OK) ? -errno : -EINVAL;
	r = malloc(sizeof(*r));
	if (!r) {
		json_object_put(o);
		return -ENOMEM;
	}
	ret = r0_state_record_parse(o, r);
	if (!ret && r->devt != devt)
		ret = -EINVAL;   /* a record of another device under this name */
	free(r);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	*rec = o;
	return 0;
}

int r0_state_forget_dir(const char *dir, dev_t devt)
{
	char path[PATH_MAX];
	int err = record_path(dir, devt, path, sizeof(path));

	if (!err && unlink(path) && errno != ENOENT)
		err = -errno;
	return err;
}

int r0_state_forget(dev_t devt)
{
	return r0_state_forget_dir(R0_STATE_DIR, devt);
}

int r0_state_save(dev_t devt, json_object *rec)
{
	return r0_state_save_dir(R0_STATE_DIR, devt, rec);
}

int r0_state_load(dev_t devt, json_object **rec)
{
	return r0_state_load_dir(R0_STATE_DIR, devt, rec);
}

int r0_state_read_dir(const char *dir, dev_t devt, struct r0_state_record *out)
{
	json_object *o = NULL;
	int err = r0_state_load_dir(dir, devt, &o);

	if (!err)
		err = r0_state_record_parse(o, out);
	json_object_put(o);
	return err;
}

int r0_state_read(dev_t devt, struct r0_state_record *out)
{
	return r0_state_read_dir(R0_STATE_DIR, devt, out);
}

int r0_state_record_text(const struct r0_state_record *r, char **out)
{
	json_object *o = r0_state_record_json(r);
	int err = o ? r0_json_text(o, out) : -ENOMEM;

	json_object_put(o);
	return err;
}

int r0_state_record_save(const struct r0_state_record *r)
{
	json_object *o = r0_state_record_json(r);
	int err = o ? r0_state_save(r->devt, o) : -ENOMEM;

	json_object_put(o);
	return err;
}

struct r0_state_saved {
	json_object *record;
};

int r0_state_saved_load(dev_t devt, struct r0_state_saved **out)
{
	struct r0_state_saved *s = malloc(sizeof(*s));
	int err;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	err = r0_state_load(devt, &s->record);
	if (err) {
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

void r0_state_saved_free(struct r0_state_saved *s)
{
	if (s)
		json_object_put(s->record);
	free(s);
}

json_object *r0_state_saved_json(const struct r0_state_saved *s)
{
	return s->record;
}
