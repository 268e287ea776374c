// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20, ERC20Balances} from "./ERC20.sol";

/// Name and symbol as bytes32, as early tokens (MKR, SAI) declare them: a string decoder reads
/// garbage or fails on them.
contract Bytes32Token is ERC20Balances {
    bytes32 public constant name = "Bytes Thirty Two";
    bytes32 public constant symbol = "B32";
    uint8 public constant decimals = 18;

    constructor(uint256 supply) {
        _mint(msg.sender, supply);
    }
}

/// No decimals() at all (it is optional in ERC-20): a reader must assume 18.
contract NoDecimalsToken is ERC20Balances {
    string public constant name = "No Decimals";
    string public constant symbol = "NODEC";

    constructor(uint256 supply) {
        _mint(msg.sender, supply);
    }
}

/// A fee-on-transfer token that pays its cut to an ordinary wallet (a "marketing" or treasury
/// address), as many launch tokens do, rather than burning it: every transfer not from or to its
/// owner sends 3% of the amount to the fee wallet, in a Transfer log of its own just before the rest.
contract WalletFeeToken is ERC20 {
    uint256 public constant FEE_BPS = 300;
    address public immutable owner;
    address public immutable feeWallet;

    constructor(uint256 supply, address feeWallet_) ERC20("Wallet Fee Token", "WFT", 18) {
        owner = msg.sender;
        feeWallet = feeWallet_;
        _mint(msg.sender, supply);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (from == owner || to == owner) return super._transfer(from, to, value);
        uint256 fee = (value * FEE_BPS) / 10_000;
        super._transfer(from, feeWallet, fee);
        super._transfer(from, to, value - fee);
    }
}

/// A honeypot: anyone can buy, but a transfer into its AMM pair (a sell) reverts for everyone but
/// its owner, so only the owner can ever take ether out of the pool.
contract HoneypotToken is ERC20 {
    address public immutable owner;
    address public immutable ammPair;

    constructor(uint256 supply, address ammPair_) ERC20("Honey Pot", "HONEY", 18) {
        owner = msg.sender;
        ammPair = ammPair_;
        _mint(msg.sender, supply);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(to != ammPair || from == owner, "HoneypotToken: sells disabled");
        super._transfer(from, to, value);
    }
}

/// A token its owner can mint at will (the supply is a promise of the owner's, not of the code's).
contract MintableToken is ERC20 {
    address public immutable owner;

    constructor(uint256 supply) ERC20("Mint Forever", "MINTY", 18) {
        owner = msg.sender;
        _mint(msg.sender, supply);
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == owner, "MintableToken: owner");
        _mint(to, value);
    }
}

/// A "tax token": buys from its AMM pair burn `buyTaxBps` of the amount, sells into it `sellTaxBps`,
/// and its owner can set either to anything up to 100% at any time (its owner trades untaxed).
contract TaxToken is ERC20 {
    address public immutable owner;
    address public immutable ammPair;
    uint256 public buyTaxBps = 200;
    uint256 public sellTaxBps = 500;

    constructor(uint256 supply, address ammPair_) ERC20("Tax Raiser", "TAXR", 18) {
        owner = msg.sender;
        ammPair = ammPair_;
        _mint(msg.sender, supply);
    }

    function setTaxes(uint256 buyBps, uint256 sellBps) external {
        require(msg.sender == owner, "TaxToken: owner");
        require(buyBps <= 10_000 && sellBps <= 10_000, "TaxToken: bps");
        buyTaxBps = buyBps;
        sellTaxBps = sellBps;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        uint256 bps = from == owner || to == owner ? 0 : from == ammPair ? buyTaxBps : to == ammPair ? sellTaxBps : 0;
        uint256 tax = (value * bps) / 10_000;
        if (tax > 0) _burn(from, tax);
        super._transfer(from, to, value - tax);
    }
}
