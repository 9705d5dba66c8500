#!/usr/bin/env node
// perftree adapter for kokopu (Chess960): its own FEN reader, moves(), play() and uci().
const path = require('path')
const kokopu = require(path.join(__dirname, 'kokopu'))

function perft(fen, depth) {
  const position = new kokopu.Position('chess960', fen)
  const moves = position.moves()
  if (depth === 1) return moves.length
  let total = 0
  for (const m of moves) {
    const child = new kokopu.Position(position)
    child.play(m)
    total += perft(child.fen(), depth - 1)
  }
  return total
}

const depth = parseInt(process.argv[2], 10)
const position = new kokopu.Position('chess960', process.argv[3])
for (const played of (process.argv[4] || '').split(' ').filter(Boolean)) {
  position.play(position.uci(played))
}
const lines = []
let total = 0
for (const m of position.moves()) {
  let n = 1
  if (depth > 1) { const child = new kokopu.Position(position); child.play(m); n = perft(child.fen(), depth - 1) }
  lines.push(position.uci(m) + ' ' + n)
  total += n
}
console.log(lines.join('\n') + '\n\n' + total)
