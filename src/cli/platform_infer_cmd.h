/* SPDX-License-Identifier: GPL-2.0 */
/* capsim platform infer TRACE [-o P.json] [--name NAME] */
#ifndef CAPSIM_PLATFORM_INFER_CMD_H
#define CAPSIM_PLATFORM_INFER_CMD_H

int cmd_platform_infer(int argc, char **argv);

#endif
