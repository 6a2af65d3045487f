// SPDX-License-Identifier: GPL-2.0
#include "cli.h"
#include "stdstreams.h"

int main(int argc, char **argv)
{
	std_streams_open();
	return std_streams_close(capsim_main(argc, argv));
}
