// perftree driver for motor: only motor's own FEN reader, generator and make/unmake.
// usage: driver DEPTH FEN [MOVES]
#include <iostream>
#include <sstream>
#include "perft.hpp"
#ifndef GEN
#define GEN false
#endif

template <Color side>
bool play(board & b, const std::string & uci) {
    move_list ml;
    generate_all_moves<side, GEN>(b, ml);
    for (const auto m : ml) if (m.to_string() == uci) { make_move<side, false>(b, m); return true; }
    return false;
}

// each move's subtree counted with the engine's make/unmake; printed at the root
template <Color side>
std::uint64_t walk(board & b, int depth, bool print) {
    constexpr Color next = side == White ? Black : White;
    move_list ml;
    generate_all_moves<side, GEN>(b, ml);
    std::uint64_t total = 0;
    for (const auto m : ml) {
        std::uint64_t n = 1;
        if (depth > 1) { make_move<side, false>(b, m); n = walk<next>(b, depth - 1, false); undo_move<side, false>(b); }
        if (print) std::cout << m.to_string() << " " << n << "\n";
        total += n;
    }
    return total;
}

int main(int argc, char * argv[]) {
    int depth = std::stoi(argv[1]);
    board b;
    b.fen_to_board(argv[2]);
    std::istringstream moves(argc > 3 ? argv[3] : "");
    std::string uci;
    while (moves >> uci) if (!(b.get_side() == White ? play<White>(b, uci) : play<Black>(b, uci))) { std::cerr << "illegal " << uci << "\n"; return 1; }
    std::uint64_t total = b.get_side() == White ? walk<White>(b, depth, true) : walk<Black>(b, depth, true);
    std::cout << "\n" << total << "\n";
    return 0;
}
