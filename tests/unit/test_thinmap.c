// SPDX-License-Identifier: GPL-2.0-or-later
/* A thin volume's map from thin_dump's XML, and discards placed through it onto a stripe. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "r0/geometry.h"
#include "r0/thinmap.h"
#include "r0/trimstack.h"

/* as thin_dump 0.9.0 prints a pool with two thin volumes */
static const char dump[] =
	"<superblock uuid=\"\" time=\"0\" transaction=\"2\" flags=\"0\" version=\"2\" data_block_size=\"128\" nr_data_blocks=\"640\">\n"
	"  <device dev_id=\"1\" mapped_blocks=\"4\" transaction=\"0\" creation_time=\"0\" snap_time=\"0\">\n"
	"    <range_mapping origin_begin=\"0\" data_begin=\"10\" length=\"2\" time=\"0\"/>\n"
	"    <single_mapping origin_block=\"2\" data_block=\"12\" time=\"0\"/>\n"
	"    <single_mapping origin_block=\"7\" data_block=\"3\" time=\"0\"/>\n"
	"  </device>\n"
	"  <device dev_id=\"2\" mapped_blocks=\"1\" transaction=\"1\" creation_time=\"0\" snap_time=\"0\">\n"
	"    <single_mapping origin_block=\"0\" data_block=\"0\" time=\"0\"/>\n"
	"  </device>\n"
	"</superblock>\n";

Test(thinmap, parses_one_device_and_merges_neighbours)
{
	static struct r0_thin_map m;

	cr_assert_eq(r0_thin_map_parse(dump, strlen(dump), 1, &m), 0);
	cr_assert_eq(m.n, 2, "0-1 at 10 and 2 at 12 are one extent");
	cr_expect(m.e[0].thin_block == 0 && m.e[0].data_block == 10 && m.e[0].n_blocks == 3);
	cr_expect(m.e[1].thin_block == 7 && m.e[1].data_block == 3 && m.e[1].n_blocks == 1);
	cr_assert_eq(r0_thin_map_parse(dump, strlen(dump), 2, &m), 0);
	cr_expect(m.n == 1 && m.e[0].data_block == 0);
}

Test(thinmap, refuses_what_is_not_a_dump)
{
	static struct r0_thin_map m;
	const char *bad = "<superblock><device dev_id=\"1\"><range_mapping origin_begin=\"x\"/></device></superblock>";

	cr_expect_eq(r0_thin_map_parse(dump, strlen(dump), 9, &m), -ENOENT, "no device 9");
	cr_expect_eq(r0_thin_map_parse("hello", 5, 1, &m), -EINVAL);
	cr_expect_eq(r0_thin_map_parse(bad, strlen(bad), 1, &m), -EINVAL);
	cr_expect_eq(r0_thin_map_parse(dump, 40, 1, &m), -EINVAL, "cut inside an element");
}

/* what a string scan missed and an XML parser reads: attributes in another
 * order, single quotes, a tag broken over lines, a comment, no space before "/>" */
Test(thinmap, reads_any_well_formed_layout)
{
	static struct r0_thin_map m;
	const char *x = "<?xml version=\"1.0\"?>\n<!-- thin_dump, formatted by hand -->\n"
			"<superblock uuid='' time='0'>\n"
			"<device\n  transaction='0' dev_id='1'>\n"
			"  <range_mapping length='2' data_begin='10' origin_begin='0'/>\n"
			"  <single_mapping\tdata_block=\"12\" origin_block=\"2\"/>\n"
			"</device></superblock>";
	const char *neg = "<superblock><device dev_id='1'><single_mapping origin_block='-1' data_block='0'/>"
			  "</device></superblock>";
	const char *unclosed = "<superblock><device dev_id='1'></superblock>";

	cr_assert_eq(r0_thin_map_parse(x, strlen(x), 1, &m), 0);
	cr_expect(m.n == 1 && m.e[0].thin_block == 0 && m.e[0].data_block == 10 && m.e[0].n_blocks == 3);
	cr_expect_eq(r0_thin_map_parse(neg, strlen(neg), 1, &m), -EINVAL, "a negative block");
	cr_expect_eq(r0_thin_map_parse(unclosed, strlen(unclosed), 1, &m), -EINVAL, "not well-formed");
}

/* thin (block 128 sectors) over a 2-member stripe of 64 KiB chunks (128 sectors) */
static void thin_over_stripe(struct r0_trim_stack *s)
{
	uint64_t sizes[2] = { 4096, 4096 };
	int thin, stripe, a, b;

	r0_trim_stack_init(s);
	thin = r0_trim_stack_add(s, R0_NODE_THIN, "dm-2", "dm-thin thin");
	stripe = r0_trim_stack_add(s, R0_NODE_STRIPE, "dm-1", "dm striped data");
	a = r0_trim_stack_add(s, R0_NODE_DEVICE, "a", "disk a");
	b = r0_trim_stack_add(s, R0_NODE_DEVICE, "b", "disk b");
	cr_assert(thin == 0 && stripe == 1 && a == 2 && b == 3);
	s->node[0].size_sectors = 2048;
	s->node[0].block_sectors = 128;
	s->node[0].child[0] = 1;
	s->node[0].n_children = 1;
	cr_assert_eq(r0_geometry_init(&s->node[1].geo, R0_BACKEND_DM, 65536, 2, sizes, NULL,
				      R0_MD_LAYOUT_ORIG), 0);
	s->node[1].size_sectors = 8192;
	s->node[1].child[0] = 2;
	s->node[1].child[1] = 3;
	s->node[1].n_children = 2;
	s->node[2].size_sectors = s->node[3].size_sectors = 4096;
	s->thin_node = 0;
	s->thin_map.n = 2;
	s->thin_map.e[0] = (struct r0_thin_extent){ 0, 10, 3 };   /* thin 0-2 at data 10-12 */
	s->thin_map.e[1] = (struct r0_thin_extent){ 7, 3, 1 };    /* thin 7 at data 3 */
}

Test(thinmap, places_whole_blocks_where_the_pool_put_them)
{
	static struct r0_trim_stack s;
	uint64_t tot[2];
	struct r0_trim_leaf_extent *x;
	size_t n;

	thin_over_stripe(&s);
	/* thin blocks 0-3 (sectors 0-511): 0-2 at data blocks 10-12, 3 unallocated */
	cr_assert_eq(r0_trim_stack_totals(&s, 0, 512, tot), 0);
	cr_expect(tot[0] == 256 && tot[1] == 128, "data 10, 12 on a; 11 on b: got %llu, %llu",
		  (unsigned long long)tot[0], (unsigned long long)tot[1]);
	cr_assert_eq(r0_trim_stack_split(&s, 0, 512, &x, &n, NULL), 0);
	for (size_t i = 0; i < n; i++)
		cr_expect(x[i].placed, "below a mapped thin node the pieces are placed");
	free(x);
	/* thin block 7 (sectors 896-1023) at data block 3: the stripe's member b, row 1 */
	cr_assert_eq(r0_trim_stack_split(&s, 896, 128, &x, &n, NULL), 0);
	cr_assert_eq(n, 1);
	cr_expect(x[0].leaf == 1 && x[0].leaf_start_sector == 128 && x[0].top_start_sector == 896);
	free(x);
	/* less than a whole block passes nothing */
	cr_assert_eq(r0_trim_stack_totals(&s, 0, 100, tot), 0);
	cr_expect(tot[0] == 0 && tot[1] == 0);
	/* unallocated blocks pass nothing */
	cr_assert_eq(r0_trim_stack_totals(&s, 512, 384, tot), 0);
	cr_expect(tot[0] == 0 && tot[1] == 0);
}
