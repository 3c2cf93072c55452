import { absent } from './util'

export default function Main () { return absent }
