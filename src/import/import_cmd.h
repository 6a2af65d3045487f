/* SPDX-License-Identifier: GPL-2.0 */
/* `capsim import TRACE -o WORKLOAD.json`: what src/cli dispatches to
 * (docs/import.md) */
#ifndef CAPSIM_IMPORT_CMD_H
#define CAPSIM_IMPORT_CMD_H

int cmd_import(int argc, char **argv);

#endif
