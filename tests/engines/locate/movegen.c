/* A small 0x88 move generator in perftree's protocol (DEPTH FEN [MOVES]) with one planted bug,
   for locate's tests: castling queen-side puts the king on the b-file (the line marked
   PLANTED). Built in the test with `gcc --coverage`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char board[128]; int white; char castling[5]; int ep; } Pos;
typedef struct { int from, to; char flag; } Move;   /* flag: 0, 'e' en passant, 'c' castling, or q r b n */

static const int KNIGHT[8] = {33, 31, 18, 14, -14, -18, -31, -33};
static const int KING[8] = {17, 16, 15, 1, -1, -15, -16, -17};
static const int DIAG[4] = {17, 15, -15, -17};
static const int LINE[4] = {16, 1, -1, -16};

static int own(char p, int white) { return p && ((p >= 'A' && p <= 'Z') == white); }
static char colour(char p, int white) { return white ? p : (char)(p + 32); }
static int off(int sq) { return sq < 0 || (sq & 0x88); }

static void parse(Pos *pos, const char *fen) {
    char place[100], side[4], rights[8], ep[4];
    memset(pos, 0, sizeof *pos);
    sscanf(fen, "%99s %3s %7s %3s", place, side, rights, ep);
    int rank = 7, file = 0;
    for (const char *c = place; *c; c++) {
        if (*c == '/') { rank--; file = 0; }
        else if (*c >= '1' && *c <= '8') file += *c - '0';
        else pos->board[rank * 16 + file++] = *c;
    }
    pos->white = side[0] == 'w';
    strcpy(pos->castling, strcmp(rights, "-") ? rights : "");
    pos->ep = strcmp(ep, "-") ? (ep[1] - '1') * 16 + ep[0] - 'a' : -1;
}

static int attacked(const Pos *pos, int sq, int by_white) {
    const char *b = pos->board;
    int pawns[2] = {by_white ? -15 : 15, by_white ? -17 : 17};
    for (int i = 0; i < 2; i++)
        if (!off(sq + pawns[i]) && b[sq + pawns[i]] == colour('P', by_white)) return 1;
    for (int i = 0; i < 8; i++) {
        if (!off(sq + KNIGHT[i]) && b[sq + KNIGHT[i]] == colour('N', by_white)) return 1;
        if (!off(sq + KING[i]) && b[sq + KING[i]] == colour('K', by_white)) return 1;
    }
    for (int i = 0; i < 8; i++) {
        int d = i < 4 ? DIAG[i] : LINE[i - 4];
        for (int t = sq + d; !off(t); t += d) {
            char p = b[t];
            if (!p) continue;
            if (own(p, by_white) && (p == colour('Q', by_white) || p == colour(i < 4 ? 'B' : 'R', by_white)))
                return 1;
            break;
        }
    }
    return 0;
}

static void add(Move *out, int *n, int from, int to, char flag) {
    out[*n].from = from; out[*n].to = to; out[*n].flag = flag; (*n)++;
}

static void pawn_moves(const Pos *pos, int sq, Move *out, int *n) {
    int white = pos->white, step = white ? 16 : -16, last = white ? 7 : 0;
    int t = sq + step;
    if (!off(t) && !pos->board[t]) {
        if (t >> 4 == last) { for (const char *p = "qrbn"; *p; p++) add(out, n, sq, t, *p); }
        else {
            add(out, n, sq, t, 0);
            if (sq >> 4 == (white ? 1 : 6) && !pos->board[t + step]) add(out, n, sq, t + step, 0);
        }
    }
    for (int d = step - 1; d <= step + 1; d += 2) {
        t = sq + d;
        if (off(t)) continue;
        if (pos->board[t] && !own(pos->board[t], white)) {
            if (t >> 4 == last) { for (const char *p = "qrbn"; *p; p++) add(out, n, sq, t, *p); }
            else add(out, n, sq, t, 0);
        } else if (t == pos->ep) {
            add(out, n, sq, t, 'e');
        }
    }
}

static void piece_moves(const Pos *pos, int sq, char kind, Move *out, int *n) {
    if (kind == 'N' || kind == 'K') {
        for (int i = 0; i < 8; i++) {
            int t = sq + (kind == 'N' ? KNIGHT[i] : KING[i]);
            if (!off(t) && !own(pos->board[t], pos->white)) add(out, n, sq, t, 0);
        }
        return;
    }
    for (int i = kind == 'R' ? 4 : 0; i < (kind == 'B' ? 4 : 8); i++) {
        int d = i < 4 ? DIAG[i] : LINE[i - 4];
        for (int t = sq + d; !off(t); t += d) {
            if (pos->board[t]) {
                if (!own(pos->board[t], pos->white)) add(out, n, sq, t, 0);
                break;
            }
            add(out, n, sq, t, 0);
        }
    }
}

static void castling_moves(const Pos *pos, Move *out, int *n) {
    int white = pos->white, row = white ? 0 : 0x70;
    const char *b = pos->board;
    if (b[row + 4] != colour('K', white) || attacked(pos, row + 4, !white)) return;
    if (strchr(pos->castling, colour('K', white)) && b[row + 7] == colour('R', white) && !b[row + 5] &&
        !b[row + 6] && !attacked(pos, row + 5, !white))
        add(out, n, row + 4, row + 6, 'c');
    if (strchr(pos->castling, colour('Q', white)) && b[row] == colour('R', white) && !b[row + 1] &&
        !b[row + 2] && !b[row + 3] && !attacked(pos, row + 3, !white))
        add(out, n, row + 4, row + 1, 'c');   /* PLANTED: the king goes to c1, not b1 */
}

static void make(const Pos *pos, Move m, Pos *after) {
    static const int corners[6] = {0x04, 0x00, 0x07, 0x74, 0x70, 0x77};
    static const char *rights[6] = {"KQ", "Q", "K", "kq", "q", "k"};
    *after = *pos;
    char piece = after->board[m.from];
    after->board[m.from] = 0;
    if (m.flag == 'e') after->board[pos->white ? m.to - 16 : m.to + 16] = 0;
    if (m.flag == 'c') {
        int kside = (m.to & 7) == 6, from = kside ? m.to + 1 : (m.to & 0x70), to = kside ? m.to - 1 : m.to + 1;
        after->board[to] = after->board[from];
        after->board[from] = 0;
    }
    after->board[m.to] = m.flag && strchr("qrbn", m.flag) ? colour((char)(m.flag - 32), pos->white) : piece;
    for (int i = 0; i < 6; i++) {
        if (corners[i] != m.from && corners[i] != m.to) continue;
        char kept[5] = "";
        int k = 0;
        for (const char *c = after->castling; *c; c++)
            if (!strchr(rights[i], *c)) kept[k++] = *c;
        kept[k] = 0;
        strcpy(after->castling, kept);
    }
    after->white = !pos->white;
    after->ep = (piece == 'P' || piece == 'p') && abs(m.to - m.from) == 32 ? (m.from + m.to) / 2 : -1;
}

static int legal_moves(const Pos *pos, Move *legal) {
    Move out[256];
    int n = 0, count = 0;
    for (int sq = 0; sq < 128; sq++) {
        char p = pos->board[sq];
        if (off(sq) || !own(p, pos->white)) continue;
        if (p == 'P' || p == 'p') pawn_moves(pos, sq, out, &n);
        else piece_moves(pos, sq, (char)(pos->white ? p : p - 32), out, &n);
    }
    castling_moves(pos, out, &n);
    for (int i = 0; i < n; i++) {
        Pos after;
        make(pos, out[i], &after);
        for (int sq = 0; sq < 128; sq++)
            if (!off(sq) && after.board[sq] == colour('K', pos->white)) {
                if (!attacked(&after, sq, !pos->white)) legal[count++] = out[i];
                break;
            }
    }
    return count;
}

static long perft(const Pos *pos, int depth) {
    Move moves[256];
    int n = legal_moves(pos, moves);
    if (depth == 1) return n;
    long total = 0;
    for (int i = 0; i < n; i++) {
        Pos after;
        make(pos, moves[i], &after);
        total += perft(&after, depth - 1);
    }
    return total;
}

static void play(Pos *pos, const char *text) {
    Move m = {(text[1] - '1') * 16 + text[0] - 'a', (text[3] - '1') * 16 + text[2] - 'a', text[4]};
    char piece = pos->board[m.from];
    if ((piece == 'K' || piece == 'k') && abs(m.to - m.from) == 2) m.flag = 'c';
    else if ((piece == 'P' || piece == 'p') && m.to == pos->ep && (m.to - m.from) % 16) m.flag = 'e';
    Pos after;
    make(pos, m, &after);
    *pos = after;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int depth = atoi(argv[1]);
    Pos pos;
    parse(&pos, argv[2]);
    if (argc > 3) {
        char moves[4096];
        snprintf(moves, sizeof moves, "%s", argv[3]);
        for (char *word = strtok(moves, " "); word; word = strtok(NULL, " ")) play(&pos, word);
    }
    Move moves[256];
    int n = legal_moves(&pos, moves);
    long total = 0;
    for (int i = 0; i < n; i++) {
        Pos after;
        make(&pos, moves[i], &after);
        long count = depth == 1 ? 1 : perft(&after, depth - 1);
        total += count;
        printf("%c%d%c%d%s%c %ld\n", 'a' + (moves[i].from & 7), (moves[i].from >> 4) + 1, 'a' + (moves[i].to & 7),
               (moves[i].to >> 4) + 1, "", moves[i].flag && strchr("qrbn", moves[i].flag) ? moves[i].flag : ' ', count);
    }
    printf("\n%ld\n", total);
    return 0;
}
