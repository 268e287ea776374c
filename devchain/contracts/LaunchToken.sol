// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "./ERC20.sol";

/// A launchpad token: 18 decimals, the whole fixed supply minted once at construction.
contract LaunchToken is ERC20 {
    constructor(string memory name_, string memory symbol_, uint256 supply, address holder)
        ERC20(name_, symbol_, 18)
    {
        _mint(holder, supply);
    }
}
