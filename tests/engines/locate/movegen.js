#!/usr/bin/env node
// A small 0x88 move generator in perftree's protocol (DEPTH FEN [MOVES]) with one planted bug,
// for locate's tests: a pawn promoting with a capture becomes a queen only (the line marked
// PLANTED). Node alone runs it.
"use strict";

const KNIGHT = [33, 31, 18, 14, -14, -18, -31, -33];
const KING = [17, 16, 15, 1, -1, -15, -16, -17];
const BISHOP = [17, 15, -15, -17];
const ROOK = [16, 1, -1, -16];
const CORNERS = [[0x04, "KQ"], [0x00, "Q"], [0x07, "K"], [0x74, "kq"], [0x70, "q"], [0x77, "k"]];

function parse(fen) {
  const parts = fen.split(/\s+/);
  const board = new Map();
  let rank = 7, file = 0;
  for (const ch of parts[0]) {
    if (ch === "/") {
      rank -= 1;
      file = 0;
    } else if (ch >= "1" && ch <= "8") {
      file += Number(ch);
    } else {
      board.set(rank * 16 + file, ch);
      file += 1;
    }
  }
  const castling = parts[2] === "-" ? "" : parts[2];
  const ep = parts[3] === "-" ? null : (Number(parts[3][1]) - 1) * 16 + parts[3].charCodeAt(0) - 97;
  return { board, white: parts[1] === "w", castling, ep };
}

const name = (sq) => "abcdefgh"[sq & 7] + String((sq >> 4) + 1);
const own = (piece, white) => (piece === piece.toUpperCase()) === white;
const colour = (piece, white) => (white ? piece : piece.toLowerCase());

function attacked(board, sq, byWhite) {
  for (const d of byWhite ? [-15, -17] : [15, 17]) {
    if (board.get(sq + d) === colour("P", byWhite)) return true;
  }
  for (const [steps, piece] of [[KNIGHT, "N"], [KING, "K"]]) {
    for (const d of steps) {
      if (!((sq + d) & 0x88) && board.get(sq + d) === colour(piece, byWhite)) return true;
    }
  }
  for (const [dirs, pieces] of [[BISHOP, "BQ"], [ROOK, "RQ"]]) {
    for (const d of dirs) {
      let t = sq + d;
      while (!(t & 0x88)) {
        const p = board.get(t);
        if (p !== undefined) {
          if (pieces.includes(p.toUpperCase()) && own(p, byWhite)) return true;
          break;
        }
        t += d;
      }
    }
  }
  return false;
}

function pawnMoves(board, sq, white, ep, out) {
  const step = white ? 16 : -16;
  const last = white ? 7 : 0;
  let t = sq + step;
  if (!(t & 0x88) && !board.has(t)) {
    if (t >> 4 === last) {
      for (const promo of "qrbn") out.push([sq, t, promo]);
    } else {
      out.push([sq, t, ""]);
      if (sq >> 4 === (white ? 1 : 6) && !board.has(t + step)) out.push([sq, t + step, ""]);
    }
  }
  for (const d of [step - 1, step + 1]) {
    t = sq + d;
    if (t & 0x88) continue;
    if (board.has(t) && !own(board.get(t), white)) {
      if (t >> 4 === last) {
        for (const promo of "q") out.push([sq, t, promo]); // PLANTED: a capture promotes to a queen only
      } else {
        out.push([sq, t, ""]);
      }
    } else if (t === ep) {
      out.push([sq, t, "ep"]);
    }
  }
}

function pieceMoves(board, sq, kind, white, out) {
  if (kind === "N" || kind === "K") {
    for (const d of kind === "N" ? KNIGHT : KING) {
      const t = sq + d;
      if (!(t & 0x88) && (!board.has(t) || !own(board.get(t), white))) out.push([sq, t, ""]);
    }
    return;
  }
  const dirs = kind === "B" ? BISHOP : kind === "R" ? ROOK : BISHOP.concat(ROOK);
  for (const d of dirs) {
    let t = sq + d;
    while (!(t & 0x88)) {
      if (board.has(t)) {
        if (!own(board.get(t), white)) out.push([sq, t, ""]);
        break;
      }
      out.push([sq, t, ""]);
      t += d;
    }
  }
}

function castlingMoves(board, white, castling, out) {
  const row = white ? 0 : 0x70;
  if (board.get(row + 4) !== colour("K", white) || attacked(board, row + 4, !white)) return;
  const rook = colour("R", white);
  if (castling.includes(colour("K", white)) && board.get(row + 7) === rook && !board.has(row + 5) &&
      !board.has(row + 6) && !attacked(board, row + 5, !white)) {
    out.push([row + 4, row + 6, "castle"]);
  }
  if (castling.includes(colour("Q", white)) && board.get(row) === rook && !board.has(row + 1) &&
      !board.has(row + 2) && !board.has(row + 3) && !attacked(board, row + 3, !white)) {
    out.push([row + 4, row + 2, "castle"]);
  }
}

function make(pos, [sq, t, flag]) {
  const board = new Map(pos.board);
  const piece = board.get(sq);
  board.delete(sq);
  if (flag === "ep") board.delete(pos.white ? t - 16 : t + 16);
  if (flag === "castle") {
    const [from, to] = (t & 7) === 6 ? [t + 1, t - 1] : [t - 2, t + 1];
    board.set(to, board.get(from));
    board.delete(from);
  }
  board.set(t, "qrbn".includes(flag) && flag ? colour(flag.toUpperCase(), pos.white) : piece);
  let castling = pos.castling;
  for (const [corner, rights] of CORNERS) {
    if (corner === sq || corner === t) castling = [...castling].filter((c) => !rights.includes(c)).join("");
  }
  const double = (piece === "P" || piece === "p") && Math.abs(t - sq) === 32;
  return { board, white: !pos.white, castling, ep: double ? (sq + t) / 2 : null };
}

function legalMoves(pos) {
  const out = [];
  for (const [sq, piece] of pos.board) {
    if (!own(piece, pos.white)) continue;
    if (piece === "P" || piece === "p") pawnMoves(pos.board, sq, pos.white, pos.ep, out);
    else pieceMoves(pos.board, sq, piece.toUpperCase(), pos.white, out);
  }
  castlingMoves(pos.board, pos.white, pos.castling, out);
  return out.filter((move) => {
    const after = make(pos, move);
    for (const [sq, p] of after.board) {
      if (p === colour("K", pos.white)) return !attacked(after.board, sq, !pos.white);
    }
    return false;
  });
}

const uci = ([sq, t, flag]) => name(sq) + name(t) + ("qrbn".includes(flag) && flag ? flag : "");

function perft(pos, depth) {
  const moves = legalMoves(pos);
  if (depth === 1) return moves.length;
  let total = 0;
  for (const move of moves) total += perft(make(pos, move), depth - 1);
  return total;
}

function play(pos, text) {
  const sq = (Number(text[1]) - 1) * 16 + text.charCodeAt(0) - 97;
  const t = (Number(text[3]) - 1) * 16 + text.charCodeAt(2) - 97;
  const piece = pos.board.get(sq);
  let flag = text.length > 4 ? text[4] : "";
  if ((piece === "K" || piece === "k") && Math.abs(t - sq) === 2) flag = "castle";
  else if ((piece === "P" || piece === "p") && t === pos.ep && (t - sq) % 16) flag = "ep";
  return make(pos, [sq, t, flag]);
}

function main() {
  const depth = Number(process.argv[2]);
  let pos = parse(process.argv[3]);
  for (const text of (process.argv[4] || "").split(/\s+/).filter(Boolean)) pos = play(pos, text);
  let total = 0;
  const lines = [];
  for (const move of legalMoves(pos)) {
    const count = depth === 1 ? 1 : perft(make(pos, move), depth - 1);
    total += count;
    lines.push(uci(move) + " " + count);
  }
  process.stdout.write(lines.join("\n") + "\n\n" + total + "\n");
}

main();
