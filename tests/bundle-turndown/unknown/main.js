export * from './other'

export default function Main () {}
