// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20Balances} from "./ERC20.sol";

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
