// perftree driver for Stockfish of 2008-2009: only its own FEN reader (the Position
// constructor), legal move generator (generate_legal_moves) and do_move/undo_move.
// usage: driver DEPTH FEN [MOVES]. Build with -DUNDOINFO for the versions before
// StateInfo (autumn 2008), whose undo_move takes the UndoInfo back.
#include "bitboard.h"
#include "direction.h"
#include "move.h"
#include "movegen.h"
#include "position.h"
#include "ucioption.h"
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#if defined(UNDOINFO)
typedef UndoInfo State;
#define UNDO(pos, m, st) (pos).undo_move((m), (st))
#else
typedef StateInfo State;
#define UNDO(pos, m, st) (pos).undo_move((m))
#endif

static unsigned long long count(Position &pos, int depth)
{
    MoveStack moves[256];
    int n = generate_legal_moves(pos, moves);
    if (depth == 1)
        return n;
    unsigned long long total = 0;
    for (int i = 0; i < n; i++)
    {
        State st;
        pos.do_move(moves[i].move, st);
        total += count(pos, depth - 1);
        UNDO(pos, moves[i].move, st);
    }
    return total;
}

int main(int argc, char **argv)
{
    init_uci_options();  // the piece-square tables read their weights from the options
    init_direction_table();
    init_bitboards();
    Position::init_zobrist();
    Position::init_piece_square_tables();
    int depth = std::atoi(argv[1]);
    Position pos(argv[2]);
    // each played move keeps its StateInfo alive: the position points into it
    static State played[1024];
    int plies = 0;
    std::istringstream line(argc > 3 ? argv[3] : "");
    std::string uci;
    while (line >> uci)
    {
        MoveStack moves[256];
        int n = generate_legal_moves(pos, moves), i = 0;
        while (i < n && move_to_string(moves[i].move) != uci)
            i++;
        if (i == n)
        {
            std::fprintf(stderr, "illegal %s\n", uci.c_str());
            return 1;
        }
        pos.do_move(moves[i].move, played[plies++]);
    }
    MoveStack moves[256];
    int n = generate_legal_moves(pos, moves);
    unsigned long long total = 0;
    for (int i = 0; i < n; i++)
    {
        unsigned long long c = 1;
        if (depth > 1)
        {
            State st;
            pos.do_move(moves[i].move, st);
            c = count(pos, depth - 1);
            UNDO(pos, moves[i].move, st);
        }
        std::printf("%s %llu\n", move_to_string(moves[i].move).c_str(), c);
        total += c;
    }
    std::printf("\n%llu\n", total);
    return 0;
}
