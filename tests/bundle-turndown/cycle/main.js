import other from './other'

export default function Main () { return other }
