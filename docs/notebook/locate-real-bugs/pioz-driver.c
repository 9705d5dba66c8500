/* perftree driver for the chess gem's C core: its own set_fen, pseudo_legal_move and
 * apply_move/rollback, the way the gem's Board#generate_moves walks them.
 * usage: driver DEPTH FEN [MOVES] */
#include "game.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char PROMOTIONS[] = "QRBN";

static int promotes(Board *b, int from, int to)
{
  char p = b->placement[from];
  return (p == 'P' && to >= 56) || (p == 'p' && to < 8);
}

/* each legal move applied, its subtree counted, then rolled back; printed at the root */
static unsigned long long walk(Game *g, int depth, int print)
{
  unsigned long long total = 0;
  for (int from = 0; from < 64; from++)
    for (int to = 0; to < 64; to++)
      {
        Board *b = current_board(g);
        if (!pseudo_legal_move(b, from, to)) continue;
        int n = promotes(b, from, to) ? 4 : 1;
        for (int k = 0; k < n; k++)
          {
            char promo = n == 4 ? PROMOTIONS[k] : 0;
            if (!apply_move(g, from, to, promo)) continue;
            unsigned long long c = depth <= 1 ? 1 : walk(g, depth - 1, 0);
            rollback(g);
            if (print)
              printf("%c%c%c%c%s %llu\n", 'a' + from % 8, '1' + from / 8, 'a' + to % 8, '1' + to / 8,
                     promo ? (char[]){promo + 32, 0} : "", c);
            total += c;
          }
      }
  return total;
}

int main(int argc, char **argv)
{
  init_chess_library();
  Game *g = init_game();
  set_fen(g, argv[2]);
  if (argc > 3)
    {
      char *moves = strdup(argv[3]);
      for (char *m = strtok(moves, " "); m; m = strtok(NULL, " "))
        {
          int from = (m[0] - 'a') + 8 * (m[1] - '1'), to = (m[2] - 'a') + 8 * (m[3] - '1');
          char promo = m[4] ? m[4] - 32 : 0;
          if (!pseudo_legal_move(current_board(g), from, to) || !apply_move(g, from, to, promo))
            {
              fprintf(stderr, "illegal %s\n", m);
              return 1;
            }
        }
    }
  unsigned long long total = walk(g, atoi(argv[1]), 1);
  printf("\n%llu\n", total);
  return 0;
}
