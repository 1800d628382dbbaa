#!/usr/bin/env node
'use strict';

const fs = require('node:fs');
const { runSession } = require('../src/commands');

const input = fs.readFileSync(0, 'utf8');
runSession(input.split('\n'));
