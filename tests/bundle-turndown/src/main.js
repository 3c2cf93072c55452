import RULES from './rules'
import { join, twice as double } from './util'
import Parser from './parser'
import Named from './named'

var root = 'main'

export default function Service (options) {
  if (!(this instanceof Service)) return new Service(options)
  this.options = options || {}
}

Service.prototype.describe = function () {
  return process.call(this, [root, RULES.name, join('a', 'b'), double(21), Parser.kind, Named.answer])
}

function process (parts) {
  return parts.join(' ')
}
