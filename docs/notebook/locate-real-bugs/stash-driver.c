/* perftree driver for stash-bot: only its own FEN reader (uci_position), move generator
 * (get_simple_moves) and do_move. usage: driver DEPTH FEN [MOVES] */
#include "engine.h"
#include "uci.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long count(board_t *board, int depth)
{
	movelist_t *list = get_simple_moves(board);
	unsigned long long n = 0;
	if (depth == 1)
		n = list->size;
	else
		for (size_t i = 0; i < list->size; i++)
		{
			board_t next = *board;
			do_move(&next, list->moves[i]);
			n += count(&next, depth - 1);
		}
	movelist_quit(list);
	return n;
}

int main(int argc, char **argv)
{
	int depth = atoi(argv[1]);
	char position[512];
	snprintf(position, sizeof(position), "fen %s", argv[2]);
	uci_position(position);
	board_t board = g_init_board;
	if (argc > 3)
	{
		char *moves = strdup(argv[3]);
		for (char *uci = strtok(moves, " "); uci; uci = strtok(NULL, " "))
		{
			movelist_t *list = get_simple_moves(&board);
			size_t i = 0;
			while (i < list->size && strcmp(move_to_str(list->moves[i]), uci) != 0)
				i++;
			if (i == list->size)
			{
				fprintf(stderr, "illegal %s\n", uci);
				return 1;
			}
			do_move(&board, list->moves[i]);
			movelist_quit(list);
		}
	}
	movelist_t *list = get_simple_moves(&board);
	unsigned long long total = 0;
	for (size_t i = 0; i < list->size; i++)
	{
		unsigned long long n = 1;
		if (depth > 1)
		{
			board_t next = board;
			do_move(&next, list->moves[i]);
			n = count(&next, depth - 1);
		}
		printf("%s %llu\n", move_to_str(list->moves[i]), n);
		total += n;
	}
	printf("\n%llu\n", total);
	return 0;
}
