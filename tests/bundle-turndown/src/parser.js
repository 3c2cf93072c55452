function make () {
  var Parser = function () {}
  if (process.browser) {
    Parser.kind = 'browser'
  } else {
    var other = require('other')
    Parser.kind = other.kind
  }
  return Parser
}

export default make()
