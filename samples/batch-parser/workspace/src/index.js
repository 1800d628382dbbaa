'use strict';

module.exports = {
  ...require('./csv'),
  ...require('./ini'),
  ...require('./duration'),
  ...require('./query'),
  ...require('./semver'),
  ...require('./template'),
};
