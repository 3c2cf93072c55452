import { where } from './util'

var rules = {
  name: 'rules-of-' + where
}

export default rules
