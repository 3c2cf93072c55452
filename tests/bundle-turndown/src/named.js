var answer = 42

var value = { answer: answer }

export { value as default }
