// Hardhat 2 (EDR) network of the dev chain, loaded by devchain/node-server.ts through HARDHAT_CONFIG.
// Blocks are mined only on request (evm_mine with an explicit timestamp), so the simulator decides
// what goes in every block and when it happened; gas is free (base fee 0) so ether balances are exact.
const os = require("node:os");
const path = require("node:path");

const genesis = Number(process.env.DEVCHAIN_GENESIS_TIMESTAMP);
if (!Number.isInteger(genesis) || genesis <= 0) throw new Error("DEVCHAIN_GENESIS_TIMESTAMP must be set");
const scratch = path.join(os.tmpdir(), "devchain-hardhat");

module.exports = {
  paths: { root: __dirname, sources: path.join(__dirname, "contracts"), cache: scratch, artifacts: scratch },
  networks: {
    hardhat: {
      chainId: 31337,
      hardfork: "cancun",
      initialDate: new Date(genesis * 1000).toISOString(),
      initialBaseFeePerGas: 0,
      blockGasLimit: 1_000_000_000,
      allowUnlimitedContractSize: true,
      mining: { auto: false, interval: 0, mempool: { order: "fifo" } },
      accounts: { count: 10, accountsBalance: (10n ** 30n).toString() },
      loggingEnabled: false,
    },
  },
};
