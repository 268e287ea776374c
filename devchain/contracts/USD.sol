// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "./ERC20.sol";

/// A dollar stablecoin of the dev chain (6 decimals like USDC, or 18 like DAI); its deployer mints
/// for the simulation.
contract USD is ERC20 {
    address public immutable minter;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_, decimals_) {
        minter = msg.sender;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "USD: not minter");
        _mint(to, amount);
    }
}
