export function present () {}
