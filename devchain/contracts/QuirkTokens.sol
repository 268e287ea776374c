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
