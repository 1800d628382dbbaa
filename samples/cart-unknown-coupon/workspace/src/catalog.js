'use strict';

/** Prices in cents. */
const PRODUCTS = {
  'MUG-01': { name: 'Enamel mug', price: 1450 },
  'TEE-M': { name: 'T-shirt, M', price: 2200 },
  'TEE-L': { name: 'T-shirt, L', price: 2200 },
  'CAP-02': { name: 'Cap', price: 1800 },
  'STK-10': { name: 'Sticker pack', price: 500 },
};

module.exports = { PRODUCTS };
