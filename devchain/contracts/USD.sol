// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "./ERC20.sol";

/// The dev chain's dollar stablecoin (6 decimals, like USDC); its deployer mints for the simulation.
contract USD is ERC20 {
    address public immutable minter;

    constructor() ERC20("Dev USD", "DUSD", 6) {
        minter = msg.sender;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "USD: not minter");
        _mint(to, amount);
    }
}
