#!/usr/bin/env node
// perftree adapter for js-chess-engine: its own FEN reader, moves(), move() and exportFEN().
// The library promotes to a queen only, so a promotion is listed as its queen promotion.
import { Game } from './lib/js-chess-engine.mjs'

function listed (game) {
  const out = []
  for (const [from, tos] of Object.entries(game.moves())) {
    const piece = game.board.configuration.pieces[from]
    for (const to of tos) {
      const promotes = (piece === 'P' && to[1] === '8') || (piece === 'p' && to[1] === '1')
      out.push([from, to, from.toLowerCase() + to.toLowerCase() + (promotes ? 'q' : '')])
    }
  }
  return out
}

function perft (fen, depth) {
  const moves = listed(new Game(fen))
  if (depth === 1) return moves.length
  let total = 0
  for (const [from, to] of moves) {
    const child = new Game(fen)
    child.move(from, to)
    total += perft(child.exportFEN(), depth - 1)
  }
  return total
}

const depth = parseInt(process.argv[2], 10)
const game = new Game(process.argv[3])
for (const uci of (process.argv[4] || '').split(' ').filter(Boolean)) game.move(uci.slice(0, 2), uci.slice(2, 4))
const fen = game.exportFEN()
const lines = []
let total = 0
for (const [from, to, uci] of listed(game)) {
  let n = 1
  if (depth > 1) { const child = new Game(fen); child.move(from, to); n = perft(child.exportFEN(), depth - 1) }
  lines.push(uci + ' ' + n)
  total += n
}
console.log(lines.join('\n') + '\n\n' + total)
