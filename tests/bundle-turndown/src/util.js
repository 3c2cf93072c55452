var root = 'util'

export function join (a, b) {
  return a + '+' + b
}

function twice (n) {
  return 2 * n
}

export var where = root

export { twice }
