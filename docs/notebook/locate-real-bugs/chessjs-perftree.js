#!/usr/bin/env node
// perftree adapter for a chess.js checkout: its own FEN loader, move generator, move and undo.
const path = require('path')
const { Chess } = require(path.join(__dirname, 'chess.js'))

const uci = (m) => m.from + m.to + (m.promotion || '')

function perft(chess, depth) {
  const moves = chess.moves({ verbose: true })
  if (depth === 1) return moves.length
  let total = 0
  for (const m of moves) {
    chess.move(m)
    total += perft(chess, depth - 1)
    chess.undo()
  }
  return total
}

const depth = parseInt(process.argv[2], 10)
const chess = new Chess(process.argv[3])
for (const played of (process.argv[4] || '').split(' ').filter(Boolean)) {
  const m = chess.moves({ verbose: true }).find((x) => uci(x) === played)
  if (!m) { console.error('illegal ' + played); process.exit(1) }
  chess.move(m)
}
const lines = []
let total = 0
for (const m of chess.moves({ verbose: true })) {
  let n = 1
  if (depth > 1) { chess.move(m); n = perft(chess, depth - 1); chess.undo() }
  lines.push(uci(m) + ' ' + n)
  total += n
}
console.log(lines.join('\n') + '\n\n' + total)
